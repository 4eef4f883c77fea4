package dev.limiter.it.webflux;

import dev.limiter.it.harness.TestApp;

/** The WebFlux contract on Spring Boot 3.5 (Spring 6.2, Reactor Netty 1.2). */
class SpringBoot3WebfluxLimiterTest extends AbstractWebfluxLimiterTest {

    @Override
    protected TestApp app() {
        return TestApp.SPRING_BOOT3_WEBFLUX;
    }
}
