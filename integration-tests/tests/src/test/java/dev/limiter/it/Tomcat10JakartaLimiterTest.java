package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** The HTTP contract on embedded Tomcat 10.1 (jakarta.servlet 6.0). */
class Tomcat10JakartaLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.TOMCAT10_JAKARTA;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // Tomcat 10.1: the connector's useVirtualThreads
    }
}
