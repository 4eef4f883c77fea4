package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** The HTTP contract on embedded Undertow 2.3 (jakarta.servlet 6.0). */
class UndertowJakartaLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.UNDERTOW_JAKARTA;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // DeploymentInfo.setExecutor: a virtual-thread-per-task executor
    }
}
