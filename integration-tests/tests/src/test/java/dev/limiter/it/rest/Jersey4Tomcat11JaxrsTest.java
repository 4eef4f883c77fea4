package dev.limiter.it.rest;

import dev.limiter.it.harness.TestApp;

/** The JAX-RS contract on Jersey 4 (jakarta.ws.rs 4.0) behind its ServletContainer on embedded Tomcat 11. */
class Jersey4Tomcat11JaxrsTest extends AbstractJaxrsServletServerTest {

    @Override
    protected TestApp app() {
        return TestApp.JERSEY4_TOMCAT11;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // Tomcat 11: useVirtualThreads
    }
}
