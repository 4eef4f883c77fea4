package dev.limiter.it.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.AbstractRuleAllocationTest;
import dev.limiter.it.harness.TestApp;
import java.util.function.Predicate;

/** {@link AbstractRuleAllocationTest} on Spring Boot 3 WebFlux: Reactor Netty's {@code reactor-http-*} event loops. */
class WebfluxAllocationTest extends AbstractRuleAllocationTest {

    @Override
    protected TestApp app() {
        return TestApp.SPRING_BOOT3_WEBFLUX;
    }

    @Override
    protected Predicate<String> requestThreads() {
        return name -> name.startsWith("reactor-http-");
    }

    @Override
    protected String rule(String key) {
        return """
                  - id: alloc
                    match: { http: { path: /api/items/alloc } }
                    key: %s
                    limit: 1000000000
                    window: 1h
                """.formatted(key);
    }

    @Override
    protected void call(String key) {
        assertThat(server().http().status("/api/items/alloc")).isEqualTo(200);
    }
}
