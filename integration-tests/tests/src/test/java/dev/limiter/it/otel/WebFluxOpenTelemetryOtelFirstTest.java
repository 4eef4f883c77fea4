package dev.limiter.it.otel;

import dev.limiter.it.harness.TestApp;

class WebFluxOpenTelemetryOtelFirstTest extends AbstractOpenTelemetryBesideAgentTest {

    @Override
    TestApp app() {
        return TestApp.SPRING_BOOT3_WEBFLUX;
    }

    @Override
    boolean otelFirst() {
        return true;
    }
}
