package dev.limiter.it.rest;

import dev.limiter.it.harness.TestApp;

/** The JAX-RS contract on Jersey 3.1 (jakarta.ws.rs 3.1) behind its ServletContainer on embedded Tomcat 10.1. */
class Jersey3Tomcat10JaxrsTest extends AbstractJaxrsServletServerTest {

    @Override
    protected TestApp app() {
        return TestApp.JERSEY3_TOMCAT10;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // Tomcat 10.1: useVirtualThreads
    }
}
