package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** The HTTP contract on embedded Jetty 9.4 (javax.servlet). */
class Jetty9JavaxLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.JETTY9_JAVAX;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return false; // Jetty 9.4 has no virtual-thread support (see Jetty9App)
    }
}
