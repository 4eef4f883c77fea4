package dev.limiter.it.rest;

import dev.limiter.it.harness.TestApp;

/** The JAX-RS contract on RESTEasy 7 (jakarta.ws.rs 4.0), its servlet dispatcher on embedded Undertow. */
class Resteasy7UndertowJaxrsTest extends AbstractJaxrsServletServerTest {

    @Override
    protected TestApp app() {
        return TestApp.RESTEASY7_UNDERTOW;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // the deployment's executor, as for the servlet Undertow app
    }
}
