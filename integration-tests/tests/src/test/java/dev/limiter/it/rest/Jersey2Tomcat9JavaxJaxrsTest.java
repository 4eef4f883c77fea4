package dev.limiter.it.rest;

import dev.limiter.it.harness.TestApp;

/**
 * The JAX-RS contract on Jersey 2 (javax.ws.rs 2.1) behind its ServletContainer on embedded Tomcat 9
 * (javax.servlet).
 */
class Jersey2Tomcat9JavaxJaxrsTest extends AbstractJaxrsServletServerTest {

    @Override
    protected TestApp app() {
        return TestApp.JERSEY2_TOMCAT9_JAVAX;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // Tomcat 9.0.111 has useVirtualThreads too
    }
}
