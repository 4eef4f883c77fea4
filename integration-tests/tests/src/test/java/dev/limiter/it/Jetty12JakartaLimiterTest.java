package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** The HTTP contract on embedded Jetty 12 ee10 (jakarta.servlet). */
class Jetty12JakartaLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.JETTY12_JAKARTA;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // QueuedThreadPool.setVirtualThreadsExecutor
    }
}
