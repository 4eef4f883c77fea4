package dev.limiter.bench;

import dev.limiter.core.guard.Guard;
import dev.limiter.core.guard.Limit;
import dev.limiter.core.strategy.Strategy;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The programmatic facade, token bucket with the {@link SameLimits} (the same job as the Bucket4j benchmark):
 * a held {@link Limit} handle with a caller-owned out array, the no-argument form that fills a per-thread
 * array, and the "look the limit up by name on every call" use that {@link Guard}'s javadoc allows.
 */
@State(Scope.Benchmark)
public class GuardBenchmark extends BenchmarkDefaults {

    private static final String NAME = "bench";

    private Guard guard;
    private Limit limit;

    @Setup
    public void setUp() {
        guard = Guard.create();
        limit = register();
    }

    private Limit register() {
        return guard.limit(NAME, SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW.toMillis(),
                TimeUnit.MILLISECONDS, Strategy.TOKEN_BUCKET);
    }

    @Benchmark
    public boolean limitTryAcquire(CallerThread thread) {
        return thread.expectAllowed(limit.tryAcquire(thread.out));
    }

    @Benchmark
    public boolean limitTryAcquireThreadLocalOut(CallerThread thread) {
        return thread.expectAllowed(limit.tryAcquire());
    }

    @Benchmark
    public boolean lookUpByNameThenTryAcquire(CallerThread thread) {
        return thread.expectAllowed(register().tryAcquire(thread.out));
    }
}
