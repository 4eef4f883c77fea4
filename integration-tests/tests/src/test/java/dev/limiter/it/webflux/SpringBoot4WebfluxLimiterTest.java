package dev.limiter.it.webflux;

import dev.limiter.it.harness.TestApp;

/** The WebFlux contract on Spring Boot 4.0 (Spring 7, Reactor Netty 1.3). */
class SpringBoot4WebfluxLimiterTest extends AbstractWebfluxLimiterTest {

    @Override
    protected TestApp app() {
        return TestApp.SPRING_BOOT4_WEBFLUX;
    }
}
