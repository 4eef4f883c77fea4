package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The peer benchmarks measure what their names say: the allowed states admit, the exhausted states reject, and
 * the per-thread tally agrees. Calls the benchmark methods directly, as JMH's generated code does.
 */
class PeersStayOnTheirPathTest {

    private static final int CALLS = 10_000;

    @Test
    void bucket4jAllowsThenRejects() {
        Bucket4jBenchmark benchmark = new Bucket4jBenchmark();
        Bucket4jBenchmark.Allowed allowed = new Bucket4jBenchmark.Allowed();
        allowed.setUp();
        Bucket4jBenchmark.Exhausted exhausted = new Bucket4jBenchmark.Exhausted();
        exhausted.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.tryConsume(allowed, thread)).isTrue();
            assertThat(benchmark.tryConsumeRejected(exhausted, thread)).isFalse();
        }
        assertThat(thread.unexpected()).isZero();
    }

    @Test
    void resilience4jAllowsThenRejects() {
        Resilience4jBenchmark benchmark = new Resilience4jBenchmark();
        Resilience4jBenchmark.Allowed allowed = new Resilience4jBenchmark.Allowed();
        allowed.setUp();
        Resilience4jBenchmark.Exhausted exhausted = new Resilience4jBenchmark.Exhausted();
        exhausted.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.acquirePermission(allowed, thread)).isTrue();
            assertThat(benchmark.acquirePermissionRejected(exhausted, thread)).isFalse();
        }
        assertThat(thread.unexpected()).isZero();
    }

    @Test
    void guavaAllowsThenRejects() {
        GuavaBenchmark benchmark = new GuavaBenchmark();
        GuavaBenchmark.Allowed allowed = new GuavaBenchmark.Allowed();
        allowed.setUp();
        GuavaBenchmark.Exhausted exhausted = new GuavaBenchmark.Exhausted();
        exhausted.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.tryAcquire(allowed, thread)).isTrue();
            assertThat(benchmark.tryAcquireRejected(exhausted, thread)).isFalse();
        }
        assertThat(thread.unexpected()).isZero();
    }
}
