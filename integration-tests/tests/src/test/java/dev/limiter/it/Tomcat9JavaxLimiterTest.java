package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** The HTTP contract on embedded Tomcat 9 (javax.servlet 4.0). */
class Tomcat9JavaxLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.TOMCAT9_JAVAX;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // Tomcat 9.0.111: the connector's useVirtualThreads
    }
}
