package dev.limiter.bench;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.LocalKeyedLimiter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the agent pays per request for a keyed rule whose key already has a bucket: the map lookup plus the
 * strategy's check. The map holds {@value #OTHER_KEYS} other keys besides the hot one, so the lookup walks a
 * realistic table rather than a one-entry map; the hot key is a fresh String (not the literal the map was filled
 * with), like a key read from a request, but with its hash already cached, as after the first lookup.
 *
 * <p>{@code tryAcquireExistingKeyCaffeine} is the same path through a Caffeine cache of buckets
 * ({@link CaffeineKeyedLimiter}) filled with the same keys: the comparison docs/strategies.md draws between the
 * hand-made store and Caffeine. {@link NewKeyBenchmark} measures the other side, a flood of new keys.
 */
@State(Scope.Benchmark)
public class KeyedLimiterBenchmark extends BenchmarkDefaults {

    static final int OTHER_KEYS = 10_000;

    private KeyedLimiter limiter;
    private KeyedLimiter caffeine;
    private String hotKey;

    @Setup
    public void setUp() {
        RateLimitStrategy strategy = OurLimiters.strategy("fixed-window");
        limiter = LocalKeyedLimiter.create(strategy, OurLimiters.allowedConfig(strategy), OTHER_KEYS * 2);
        caffeine = new CaffeineKeyedLimiter(strategy, OurLimiters.allowedConfig(strategy), OTHER_KEYS * 2);
        long[] out = Outcome.newArray();
        for (KeyedLimiter store : new KeyedLimiter[] {limiter, caffeine}) {
            for (int i = 0; i < OTHER_KEYS; i++) {
                OurLimiters.requireAllowed(store.tryAcquire("10.0." + (i >> 8) + "." + (i & 0xFF), out), "keyed");
            }
            OurLimiters.requireAllowed(store.tryAcquire("192.168.1.1", out), "keyed");
        }
        hotKey = new String("192.168.1.1".toCharArray());
        hotKey.hashCode();
    }

    @Benchmark
    public boolean tryAcquireExistingKey(CallerThread thread) {
        return thread.expectAllowed(limiter.tryAcquire(hotKey, thread.out));
    }

    @Benchmark
    public boolean tryAcquireExistingKeyCaffeine(CallerThread thread) {
        return thread.expectAllowed(caffeine.tryAcquire(hotKey, thread.out));
    }
}
