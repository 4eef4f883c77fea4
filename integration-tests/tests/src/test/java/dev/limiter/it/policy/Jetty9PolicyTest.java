package dev.limiter.it.policy;

import dev.limiter.it.harness.TestApp;

/** Several limits, plans, exemptions, cost and conditions on Jetty 9.4 (javax). */
class Jetty9PolicyTest extends AbstractPolicyServerTest {

    @Override
    TestApp app() {
        return TestApp.JETTY9_JAVAX;
    }
}
