package dev.limiter.it.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.AbstractRuleAllocationTest;
import dev.limiter.it.harness.TestApp;
import java.util.function.Predicate;

/**
 * {@link AbstractRuleAllocationTest} on Micronaut 4's Netty server: an {@code http:} rule; its event loops
 * ({@code default-eventLoopGroup-*}), which run the decision and the route alike.
 */
class Micronaut4AllocationTest extends AbstractRuleAllocationTest {

    @Override
    protected TestApp app() {
        return TestApp.MICRONAUT4;
    }

    @Override
    protected Predicate<String> requestThreads() {
        return name -> name.startsWith("default-eventLoopGroup-");
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
