package dev.limiter.it.vertx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.AbstractRuleAllocationTest;
import dev.limiter.it.harness.TestApp;
import java.util.function.Predicate;

/**
 * {@link AbstractRuleAllocationTest} on a plain Vert.x Web 5 application: an {@code http:} rule checked on the
 * woven routing context, on Vert.x's {@code vert.x-eventloop-thread-*} event loops.
 */
class Vertx5AllocationTest extends AbstractRuleAllocationTest {

    @Override
    protected TestApp app() {
        return TestApp.VERTX5_WEB;
    }

    @Override
    protected Predicate<String> requestThreads() {
        return name -> name.startsWith("vert.x-eventloop-thread-");
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
