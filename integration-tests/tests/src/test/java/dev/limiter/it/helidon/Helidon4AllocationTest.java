package dev.limiter.it.helidon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.AbstractRuleAllocationTest;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.harness.TestJvmAtLeast;
import java.util.function.Predicate;

/**
 * {@link AbstractRuleAllocationTest} on Helidon SE 4 (Java 21+, skipped on an older test JVM): an {@code http:}
 * rule decided in the woven routing. Requests run on virtual threads, whose allocations HotSpot counts on the
 * carrier threads that mount them (the virtual-thread scheduler's {@code ForkJoinPool-1-worker-*}).
 */
@TestJvmAtLeast(value = 21, what = "Helidon 4")
class Helidon4AllocationTest extends AbstractRuleAllocationTest {

    @Override
    protected TestApp app() {
        return TestApp.HELIDON4_SE;
    }

    @Override
    protected Predicate<String> requestThreads() {
        return name -> name.startsWith("ForkJoinPool-1-worker-");
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
