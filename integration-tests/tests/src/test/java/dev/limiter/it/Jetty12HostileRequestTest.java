package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** Hostile requests against Jetty 12 (ee10) with the agent. */
class Jetty12HostileRequestTest extends AbstractHostileRequestTest {

    @Override
    TestApp app() {
        return TestApp.JETTY12_JAKARTA;
    }
}
