package dev.limiter.it.otel;

import dev.limiter.it.harness.TestApp;

class Tomcat11OpenTelemetryOtelFirstTest extends AbstractOpenTelemetryBesideAgentTest {

    @Override
    TestApp app() {
        return TestApp.TOMCAT11_JAKARTA;
    }

    @Override
    boolean otelFirst() {
        return true;
    }
}
