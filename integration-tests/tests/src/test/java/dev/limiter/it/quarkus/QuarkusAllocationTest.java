package dev.limiter.it.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.AbstractRuleAllocationTest;
import dev.limiter.it.harness.TestApp;
import java.util.function.Predicate;

/**
 * {@link AbstractRuleAllocationTest} on Quarkus REST: a {@code jaxrs:} rule on a blocking resource method; the
 * Vert.x event loops and the worker threads that run the method.
 */
class QuarkusAllocationTest extends AbstractRuleAllocationTest {

    @Override
    protected TestApp app() {
        return TestApp.QUARKUS_REST;
    }

    @Override
    protected Predicate<String> requestThreads() {
        return name -> name.startsWith("vert.x-eventloop-thread-") || name.startsWith("executor-thread-");
    }

    @Override
    protected String rule(String key) {
        return """
                  - id: alloc
                    match: { jaxrs: { class: dev.limiter.it.app.quarkus.LimitedResource, method: exact } }
                    key: %s
                    limit: 1000000000
                    window: 1h
                """.formatted(key);
    }

    @Override
    protected void call(String key) {
        assertThat(server().http().status("/api/exact")).isEqualTo(200);
    }
}
