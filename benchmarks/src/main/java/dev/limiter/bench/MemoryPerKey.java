package dev.limiter.bench;

import com.google.common.util.concurrent.RateLimiter;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.LocalKeyedLimiter;
import io.github.bucket4j.Bandwidth;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Bytes of limiter state per key, ours against the peers: allocates N buckets (or N peer limiters), keeps them
 * reachable, and divides the live-heap growth by N. A JMH-free main because the question is a size, not a speed;
 * JOL would give the same number per object but is not among the artifacts known to resolve here.
 *
 * <p>Usage: {@code java <HeapMeter.JVM_FLAGS> -Xmx3g -cp benchmarks.jar dev.limiter.bench.MemoryPerKey out.tsv [N]}
 * (scripts/bench-core passes them; {@link HeapMeter} explains each and refuses to run without them). Writes one
 * {@code name<TAB>bytes-per-key} line per subject. "ours-bucket" is the state a strategy keeps per key;
 * "ours-keyed" adds what {@link LocalKeyedLimiter} spends to find it (map entry and bookkeeping), with the key
 * strings themselves allocated before the first reading and so not counted. "caffeine-keyed" is the same
 * measurement for a Caffeine cache of buckets ({@link CaffeineKeyedLimiter}), the alternative the issue asked us
 * to weigh.
 */
public final class MemoryPerKey {

    static final String[] STRATEGIES = {
        "fixed-window", "token-bucket", "sliding-window", "leaky-bucket", "concurrency"};

    private final int n;
    private final HeapMeter heap = new HeapMeter();
    private final List<String> lines = new ArrayList<>();
    /** What is being measured, held by a field so its liveness never depends on how the JIT treats locals. */
    private Object retained;

    MemoryPerKey(int n) {
        this.n = n;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: MemoryPerKey <out.tsv> [N]");
            System.exit(2);
        }
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        MemoryPerKey measurement = new MemoryPerKey(n);
        measurement.measureAll();
        Files.write(Path.of(args[0]), measurement.lines, StandardCharsets.UTF_8);
        measurement.lines.forEach(System.out::println);
    }

    void measureAll() {
        for (String name : STRATEGIES) {
            RateLimitStrategy strategy = OurLimiters.strategy(name);
            LimitConfig config = OurLimiters.allowedConfig(strategy);
            record("ours-bucket:" + name, perObject(i -> strategy.newBucket(config)));
        }
        for (String name : STRATEGIES) {
            RateLimitStrategy strategy = OurLimiters.strategy(name);
            record("ours-keyed:" + name, perKeyedKey(strategy, OurLimiters.allowedConfig(strategy)));
        }
        RateLimitStrategy fixed = OurLimiters.strategy("fixed-window");
        LimitConfig fixedConfig = OurLimiters.allowedConfig(fixed);
        record("caffeine-keyed:fixed-window", perKeyedKey("caffeine", size -> new CaffeineKeyedLimiter(fixed,
                fixedConfig, size)));
        Bandwidth bandwidth = Bucket4jBenchmark.bandwidth(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW);
        record("bucket4j", perObject(i -> Bucket4jBenchmark.newBucket(bandwidth)));
        RateLimiterConfig r4jConfig = RateLimiterConfig.custom()
                .limitForPeriod(SameLimits.ALLOWED_LIMIT)
                .limitRefreshPeriod(SameLimits.ALLOWED_WINDOW)
                .timeoutDuration(Duration.ZERO)
                .build();
        record("resilience4j", perObject(i -> new AtomicRateLimiter("bench", r4jConfig)));
        record("guava", perObject(i -> GuavaBenchmark.newLimiter(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW)));
        record("atomiclong", perObject(i -> new AtomicLong()));
    }

    List<String> lines() {
        return lines;
    }

    private void record(String name, double bytesPerKey) {
        lines.add(name + "\t" + String.format(Locale.ROOT, "%.1f", bytesPerKey));
    }

    /**
     * Retained bytes of one object made by {@code factory}, the holder array excluded. One object is made before
     * the first reading so one-time costs (class initialisation, lambda linkage, lazily built registries) fall
     * outside the difference.
     */
    double perObject(IntFunction<Object> factory) {
        Object[] keep = new Object[n + 1];
        retained = keep;
        keep[n] = factory.apply(-1);
        long before = heap.liveBytes();
        for (int i = 0; i < n; i++) {
            keep[i] = factory.apply(i);
        }
        long after = heap.liveBytes();
        retained = null;
        return (after - before) / (double) n;
    }

    /** Retained bytes per key of a keyed limiter that has seen N distinct keys, the key strings excluded. */
    double perKeyedKey(RateLimitStrategy strategy, LimitConfig config) {
        return perKeyedKey(strategy.name(), size -> LocalKeyedLimiter.create(strategy, config, size));
    }

    /**
     * The same for any store made by {@code store(maxKeys)} (the Caffeine variant: its cache, nodes and frequency
     * sketch, sized for N keys, count as they would in production).
     */
    double perKeyedKey(String what, IntFunction<KeyedLimiter> store) {
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = "key-" + i;
        }
        long[] out = Outcome.newArray();
        KeyedLimiter limiter = store.apply(n + 1);
        retained = new Object[] {keys, limiter};
        OurLimiters.requireAllowed(limiter.tryAcquire("first", out), what);
        long before = heap.liveBytes();
        for (int i = 0; i < n; i++) {
            OurLimiters.requireAllowed(limiter.tryAcquire(keys[i], out), what);
        }
        if (limiter instanceof CaffeineKeyedLimiter caffeine) {
            caffeine.cleanUp(); // pending maintenance, so the count below is exact
        }
        long after = heap.liveBytes();
        if (limiter.activeKeys() != n + 1) { // "first" plus the n measured keys, none evicted
            throw new IllegalStateException(what + " kept " + limiter.activeKeys() + " of " + n + " keys");
        }
        retained = null;
        return (after - before) / (double) n;
    }
}
