package dev.limiter.bench;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.LocalKeyedLimiter;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A flood of new keys into a full store: every call brings a key the store has not seen for a long time (it
 * cycles through {@value #KEYS} prebuilt keys, {@value #KEYS_PER_SLOT}x the store's {@value #MAX_KEYS} slots), so
 * each one is a miss, an insertion and an eviction. This is where the hand-made store ({@code local}: reserve a
 * slot, sampled sweep that drops idle keys first) and Caffeine ({@code caffeine}: W-TinyLFU, maintenance
 * amortised over calls) differ most; the existing-key path is {@link KeyedLimiterBenchmark}.
 *
 * <p>The limit is far above what one key ever sees, so every call is admitted and the path is the same for both.
 * B/op counts what an insertion allocates (bucket, map node; Caffeine's node is larger).
 */
@State(Scope.Benchmark)
public class NewKeyBenchmark extends BenchmarkDefaults {

    static final int MAX_KEYS = 10_000;
    static final int KEYS_PER_SLOT = 100;
    static final int KEYS = MAX_KEYS * KEYS_PER_SLOT;

    @Param({"local", "caffeine"})
    public String store;

    private KeyedLimiter limiter;
    private String[] keys;

    @Setup
    public void setUp() {
        RateLimitStrategy strategy = OurLimiters.strategy("fixed-window");
        LimitConfig config = OurLimiters.allowedConfig(strategy);
        limiter = switch (store) {
            case "local" -> LocalKeyedLimiter.create(strategy, config, MAX_KEYS);
            case "caffeine" -> new CaffeineKeyedLimiter(strategy, config, MAX_KEYS);
            default -> throw new IllegalArgumentException("store " + store);
        };
        keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = "10." + (i >> 16) + "." + ((i >> 8) & 0xFF) + "." + (i & 0xFF);
            keys[i].hashCode();
        }
        long[] out = Outcome.newArray();
        for (int i = 0; i < MAX_KEYS; i++) {
            OurLimiters.requireAllowed(limiter.tryAcquire("full-" + i, out), "new key");
        }
    }

    KeyedLimiter limiter() {
        return limiter;
    }

    @Benchmark
    public boolean tryAcquireNewKeyWhenFull(NewKeyCursor cursor, CallerThread thread) {
        return thread.expectAllowed(limiter.tryAcquire(keys[cursor.next()], thread.out));
    }

    /** Each thread walks the keys from its own offset, so two threads do not bring the same key together. */
    @State(Scope.Thread)
    public static class NewKeyCursor {
        private static final AtomicInteger THREADS = new AtomicInteger();
        private int index = (int) ((THREADS.getAndIncrement() * (long) (KEYS / 2 + 7)) % KEYS);

        int next() {
            int i = index;
            index = i + 1 == KEYS ? 0 : i + 1;
            return i;
        }
    }
}
