package dev.limiter.it.otel;

import dev.limiter.it.harness.TestApp;

class Tomcat11OpenTelemetryLimiterFirstTest extends AbstractOpenTelemetryBesideAgentTest {

    @Override
    TestApp app() {
        return TestApp.TOMCAT11_JAKARTA;
    }

    @Override
    boolean otelFirst() {
        return false;
    }
}
