package dev.limiter.bench;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.SystemClock;
import dev.limiter.core.store.LocalKeyedLimiter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * An attack's flood of new keys into a store whose {@value #MAX_KEYS} slots all hold live state (each key spent
 * one of its 3 permits of an hour): what one request of a never-seen key costs under each {@code on-full}
 * choice ({@link NewKeyBenchmark} is the evict-oldest case with a limit never reached, beside Caffeine). Nothing
 * here is idle, so the eviction hand finds nothing to drop: {@code reject} and {@code allow} walk a lap of the table
 * (up to 1,024 entries) once per clock millisecond and answer every other new key from the remembered empty lap;
 * {@code evict-oldest} walks that lap too, then evicts live keys in forced batches (8 keys for 10,000 slots)
 * taken from a sample of 16 entries each for the rest of the millisecond. The system
 * clock, as in the agent, so "once per millisecond" is real time. At 2 threads the walk is claimed by one thread
 * and the other glances at the table instead of waiting (LocalKeyedLimiter's class comment).
 *
 * <p>Keys cycle through {@value #KEYS} prebuilt strings ({@value #KEYS_PER_SLOT}x the slots, hashes cached), so
 * under {@code evict-oldest} a key comes back long after it was evicted.
 */
@State(Scope.Benchmark)
public class KeyFloodBenchmark extends BenchmarkDefaults {

    static final int MAX_KEYS = 10_000;
    static final int KEYS_PER_SLOT = 100;
    static final int KEYS = MAX_KEYS * KEYS_PER_SLOT;

    @Param({"reject", "allow", "evict-oldest"})
    public String onFull;

    private LocalKeyedLimiter limiter;
    private String[] keys;
    private boolean refuses;

    @Setup
    public void setUp() {
        RateLimitStrategy strategy = OurLimiters.strategy("fixed-window");
        LimitConfig config = LimitConfig.of(3, TimeUnit.HOURS.toMillis(1)).withClock(SystemClock.INSTANCE);
        OnFull choice = OnFull.bySpelling(onFull);
        refuses = choice == OnFull.REJECT;
        limiter = LocalKeyedLimiter.create(strategy, config, MAX_KEYS, choice);
        keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = "flood-" + Integer.toHexString(i * 0x9E3779B1);
            keys[i].hashCode();
        }
        long[] out = Outcome.newArray();
        for (int i = 0; i < MAX_KEYS; i++) {
            OurLimiters.requireAllowed(limiter.tryAcquire("live-" + i, out), "live key");
        }
    }

    @Benchmark
    public boolean newKeyIntoATableFullOfLiveState(FloodCursor cursor, CallerThread thread) {
        boolean admitted = limiter.tryAcquire(keys[cursor.next()], thread.out);
        return refuses ? thread.expectRejected(admitted) : thread.expectAllowed(admitted);
    }

    /** Each thread walks the keys from its own offset, so two threads do not bring the same key together. */
    @State(Scope.Thread)
    public static class FloodCursor {
        private static final AtomicInteger THREADS = new AtomicInteger();
        private int index = (int) ((THREADS.getAndIncrement() * (long) (KEYS / 2 + 7)) % KEYS);

        int next() {
            int i = index;
            index = i + 1 == KEYS ? 0 : i + 1;
            return i;
        }
    }
}
