package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** The HTTP contract on embedded Tomcat 11 (jakarta.servlet). */
class Tomcat11JakartaLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.TOMCAT11_JAKARTA;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // Tomcat 11: the connector's useVirtualThreads
    }
}
