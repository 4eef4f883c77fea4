package dev.limiter.it.policy;

import dev.limiter.it.harness.TestApp;

/** Several limits, plans, exemptions, cost and conditions on Tomcat 11 (jakarta). */
class Tomcat11PolicyTest extends AbstractPolicyServerTest {

    @Override
    TestApp app() {
        return TestApp.TOMCAT11_JAKARTA;
    }
}
