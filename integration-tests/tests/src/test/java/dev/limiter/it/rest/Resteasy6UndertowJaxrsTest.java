package dev.limiter.it.rest;

import dev.limiter.it.harness.TestApp;

/** The JAX-RS contract on RESTEasy 6.2 (jakarta.ws.rs 3.1), its servlet dispatcher on embedded Undertow. */
class Resteasy6UndertowJaxrsTest extends AbstractJaxrsServletServerTest {

    @Override
    protected TestApp app() {
        return TestApp.RESTEASY6_UNDERTOW;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // the deployment's executor, as for the servlet Undertow app
    }
}
