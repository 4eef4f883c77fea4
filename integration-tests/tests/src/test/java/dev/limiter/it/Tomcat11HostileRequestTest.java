package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/** Hostile requests against Tomcat 11 with the agent. */
class Tomcat11HostileRequestTest extends AbstractHostileRequestTest {

    @Override
    TestApp app() {
        return TestApp.TOMCAT11_JAKARTA;
    }
}
