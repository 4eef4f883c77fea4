package dev.limiter.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.Contention;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.ConcurrencyStrategy;
import dev.limiter.core.strategy.FixedWindowStrategy;
import dev.limiter.core.strategy.SlidingWindowStrategy;
import dev.limiter.core.strategy.TokenBucketStrategy;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class LocalKeyedLimiterTest {

    private final ManualClock clock = new ManualClock();
    private final long[] out = Outcome.newArray();

    @Test
    void keysAreLimitedIndependently() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(2, 1000).withClock(clock), 100);
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(limiter.tryAcquire("a", out)).isFalse();
        assertThat(limiter.tryAcquire("b", out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(1);
        assertThat(limiter.activeKeys()).isEqualTo(2);
    }

    @Test
    void remainingReadsWithoutStoringTheKey() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(TokenBucketStrategy.INSTANCE,
                LimitConfig.of(5, 1000).withClock(clock), 100);
        assertThat(limiter.remaining("nobody", out)).isEqualTo(5);
        assertThat(limiter.activeKeys()).isZero();
        limiter.tryAcquire("x", out);
        assertThat(limiter.remaining("x", out)).isEqualTo(4);
    }

    @Test
    void resetKeyAndResetForgetState() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(1, 60_000).withClock(clock), 100);
        limiter.tryAcquire("a", out);
        limiter.tryAcquire("b", out);
        assertThat(limiter.tryAcquire("a", out)).isFalse();
        limiter.resetKey("a");
        assertThat(limiter.activeKeys()).isEqualTo(1);
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(limiter.tryAcquire("b", out)).isFalse();
        limiter.reset();
        assertThat(limiter.activeKeys()).isZero();
        assertThat(limiter.mapSize()).isZero();
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(limiter.tryAcquire("b", out)).isTrue();
    }

    @Test
    void reconfigureAppliesToExistingKeysFromTheirNextCheck() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(5, 60_000).withClock(clock), 100);
        for (int i = 0; i < 3; i++) {
            limiter.tryAcquire("a", out);
        }
        var before = limiter.bucket("a");
        limiter.reconfigure(LimitConfig.of(4, 60_000).withClock(clock));
        assertThat(limiter.config().limit()).isEqualTo(4);
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(out[Outcome.LIMIT]).isEqualTo(4);
        assertThat(limiter.tryAcquire("a", out)).isFalse();
        assertThat(limiter.bucket("a")).as("buckets are not rebuilt").isSameAs(before);
    }

    @Test
    void reconfigureValidatesAgainstTheStrategy() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(SlidingWindowStrategy.INSTANCE,
                LimitConfig.of(5, 1000).withClock(clock), 100);
        assertThatThrownBy(() -> limiter.reconfigure(LimitConfig.of(10_000_000, 1000)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(limiter.config().limit()).isEqualTo(5);
        assertThatThrownBy(() -> LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE, LimitConfig.of(1, 1), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void idleKeysAreEvictedToMakeRoom() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(1, 1000).withClock(clock), 100);
        for (int i = 0; i < 100; i++) {
            limiter.tryAcquire("old" + i, out);
        }
        clock.advance(1000); // every old key is idle now
        for (int i = 0; i < 100; i++) {
            assertThat(limiter.tryAcquire("new" + i, out)).isTrue();
            assertThat(limiter.activeKeys()).isLessThanOrEqualTo(100);
        }
        for (int i = 0; i < 100; i++) {
            assertThat(limiter.bucket("new" + i)).as("new%d kept", i).isNotNull();
        }
        assertThat(limiter.activeKeys()).isEqualTo(100).isEqualTo(limiter.mapSize());
    }

    @Test
    void underPressureABusyKeyIsEvictedAndItsBudgetResets() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(1, 60_000).withClock(clock), 3);
        limiter.tryAcquire("a", out);
        limiter.tryAcquire("b", out);
        limiter.tryAcquire("c", out);
        assertThat(limiter.tryAcquire("d", out)).isTrue();
        assertThat(limiter.activeKeys()).isEqualTo(3);
        String evicted = null;
        int survivors = 0;
        for (String k : new String[] {"a", "b", "c"}) {
            if (limiter.bucket(k) == null) {
                evicted = k;
            } else {
                survivors++;
            }
        }
        assertThat(survivors).isEqualTo(2);
        assertThat(limiter.tryAcquire(evicted, out)).as("documented: an evicted key starts afresh").isTrue();
    }

    @Test
    void aForcedSweepFreesSeveralSlotsSoTheNextInsertionsTakeNoLock() {
        assertThat(LocalKeyedLimiter.forcedBatch(3)).isEqualTo(1);
        assertThat(LocalKeyedLimiter.forcedBatch(255)).isEqualTo(1);
        assertThat(LocalKeyedLimiter.forcedBatch(640)).isEqualTo(5);
        assertThat(LocalKeyedLimiter.forcedBatch(1_000_000)).isEqualTo(LocalKeyedLimiter.MAX_FORCED_BATCH);
        int maxKeys = 1280;
        int batch = LocalKeyedLimiter.forcedBatch(maxKeys);
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(1, 60_000).withClock(clock), maxKeys);
        for (int i = 0; i < maxKeys; i++) {
            assertThat(limiter.tryAcquire("busy" + i, out)).isTrue(); // none idle: each used its budget
        }
        assertThat(limiter.tryAcquire("new0", out)).isTrue();
        assertThat(limiter.activeKeys()).as("%d busy keys evicted, one inserted", batch)
                .isEqualTo(maxKeys - batch + 1).isEqualTo(limiter.mapSize());
        for (int i = 1; i < batch; i++) {
            assertThat(limiter.tryAcquire("new" + i, out)).isTrue();
        }
        assertThat(limiter.activeKeys()).as("the freed slots are used, nothing more evicted").isEqualTo(maxKeys);
        int kept = 0;
        for (int i = 0; i < maxKeys; i++) {
            kept += limiter.bucket("busy" + i) == null ? 0 : 1;
        }
        assertThat(kept).isEqualTo(maxKeys - batch);
    }

    @Test
    void evictIdleSweepsEveryIdleKey() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(1, 1000).withClock(clock), 100);
        for (int i = 0; i < 10; i++) {
            limiter.tryAcquire("k" + i, out);
        }
        assertThat(limiter.evictIdle()).isZero();
        clock.advance(1000);
        limiter.tryAcquire("k0", out);
        assertThat(limiter.evictIdle()).isEqualTo(9);
        assertThat(limiter.activeKeys()).isEqualTo(1);
        assertThat(limiter.bucket("k0")).isNotNull();
    }

    @Test
    void concurrencyKeysWithWorkInFlightAreNeverEvicted() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(ConcurrencyStrategy.INSTANCE,
                LimitConfig.of(1, 250).withClock(clock), 3);
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(limiter.tryAcquire("b", out)).isTrue();
        assertThat(limiter.tryAcquire("c", out)).isTrue();
        assertThat(limiter.tryAcquire("d", out)).as("no room: every key has a call in flight").isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(250);
        assertThat(limiter.activeKeys()).isEqualTo(3);
        limiter.release("b");
        assertThat(limiter.tryAcquire("d", out)).isTrue();
        assertThat(limiter.bucket("b")).isNull();
        assertThat(limiter.tryAcquire("a", out)).as("a is still held").isFalse();
        limiter.release("a");
        limiter.release("a"); // a double release cannot go negative
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(limiter.tryAcquire("a", out)).isFalse();
    }

    @Test
    void releaseOfAnUnknownKeyIsHarmless() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(ConcurrencyStrategy.INSTANCE,
                LimitConfig.of(1, 1000).withClock(clock), 3);
        limiter.release("ghost");
        assertThat(limiter.activeKeys()).isZero();
        LocalKeyedLimiter rate = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(1, 1000).withClock(clock), 3);
        rate.tryAcquire("a", out);
        rate.release("a"); // a rate limit gives nothing back
        assertThat(rate.tryAcquire("a", out)).isFalse();
    }

    @RepeatedTest(3)
    void theBoundHoldsUnderTenTimesMaxKeysInsertedFromManyThreads() throws Exception {
        int maxKeys = 5_000;
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(TokenBucketStrategy.INSTANCE,
                LimitConfig.of(10, 1000).withClock(clock), maxKeys);
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger maxSeen = new AtomicInteger();
        // the reservation counter is exact (ConcurrentHashMap.size() is not a snapshot under concurrent
        // updates, so only the quiescent map size is compared with it below)
        Thread monitor = new Thread(() -> {
            while (!done.get()) {
                maxSeen.accumulateAndGet(limiter.activeKeys(), Math::max);
            }
        });
        monitor.start();
        long admitted;
        try {
            admitted = Contention.platform(8, t -> {
                long[] o = Outcome.newArray();
                long n = 0;
                for (int i = 0; i < 10 * maxKeys / 8; i++) {
                    if (limiter.tryAcquire(t + ":" + i, o)) {
                        n++;
                    }
                }
                return n;
            });
        } finally {
            done.set(true);
            monitor.join();
        }
        assertThat(admitted).isEqualTo(10L * maxKeys);
        assertThat(maxSeen.get()).isBetween(1, maxKeys);
        assertThat(limiter.activeKeys()).isEqualTo(limiter.mapSize()).isLessThanOrEqualTo(maxKeys);
    }

    @RepeatedTest(3)
    void bulkheadPermitsAreNeverLostOrDoubledWhileKeysAreEvicted() throws Exception {
        int keys = 16;
        int limit = 2;
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(ConcurrencyStrategy.INSTANCE,
                LimitConfig.of(limit, 1000).withClock(clock), 8); // fewer slots than keys: constant eviction
        AtomicIntegerArray inside = new AtomicIntegerArray(keys);
        AtomicInteger violations = new AtomicInteger();
        long admitted = Contention.platform(8, t -> {
            long[] o = Outcome.newArray();
            long n = 0;
            for (int i = 0; i < 20_000; i++) {
                int k = (i * 7 + t * 3) % keys;
                String key = "k" + k;
                if (limiter.tryAcquire(key, o)) {
                    if (inside.incrementAndGet(k) > limit) {
                        violations.incrementAndGet();
                    }
                    inside.decrementAndGet(k);
                    limiter.release(key);
                    n++;
                }
            }
            return n;
        });
        assertThat(admitted).isPositive();
        assertThat(violations.get()).isZero();
        assertThat(limiter.activeKeys()).isLessThanOrEqualTo(8).isEqualTo(limiter.mapSize());
        for (int k = 0; k < keys; k++) {
            var bucket = limiter.bucket("k" + k);
            if (bucket != null) {
                assertThat(ConcurrencyStrategy.inFlight(bucket)).as("k%d balanced", k).isZero();
            }
        }
    }

    @Test
    void resetKeyKeepsABulkheadKeyWithCallsInFlightAndDropsItOnceIdle() {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(ConcurrencyStrategy.INSTANCE,
                LimitConfig.of(1, 1000).withClock(clock), 10);
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        limiter.resetKey("a");
        limiter.reset();
        assertThat(limiter.tryAcquire("a", out)).as("the old call still runs").isFalse();
        limiter.release("a"); // the old call ends: its permit comes back to the bucket it was taken from
        assertThat(limiter.tryAcquire("a", out)).isTrue();
        assertThat(limiter.tryAcquire("a", out)).as("exactly one in flight, not two").isFalse();
        limiter.release("a");
        limiter.resetKey("a");
        assertThat(limiter.bucket("a")).as("idle: dropped").isNull();
        assertThat(limiter.activeKeys()).isZero();
    }

    @RepeatedTest(3)
    void resetKeyHammeredDuringAcquireAndReleaseNeverLetsMoreThanTheLimitInFlight() throws Exception {
        int limit = 3;
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(ConcurrencyStrategy.INSTANCE,
                LimitConfig.of(limit, 1000).withClock(clock), 10);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger resets = new AtomicInteger();
        Thread resetter = new Thread(() -> {
            while (!done.get()) {
                limiter.resetKey("hot");
                if (resets.incrementAndGet() % 64 == 0) {
                    limiter.reset();
                }
            }
        });
        resetter.start();
        long admitted;
        try {
            admitted = Contention.platform(8, t -> {
                long[] o = Outcome.newArray();
                long n = 0;
                for (int i = 0; i < 50_000; i++) {
                    if (limiter.tryAcquire("hot", o)) {
                        maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        if ((i & 7) == 0) {
                            Thread.yield(); // hold the permit a little, so resets land while it is taken
                        }
                        inside.decrementAndGet();
                        limiter.release("hot");
                        n++;
                    }
                }
                return n;
            });
        } finally {
            done.set(true);
            resetter.join();
        }
        assertThat(resets.get()).as("the resetter ran during the calls").isPositive();
        assertThat(admitted).isPositive();
        assertThat(maxInside.get()).as("calls in flight at once").isBetween(1, limit);
        var bucket = limiter.bucket("hot");
        if (bucket != null) {
            assertThat(ConcurrencyStrategy.inFlight(bucket)).as("every permit came back").isZero();
        }
        assertThat(limiter.activeKeys()).isEqualTo(limiter.mapSize());
    }

    @RepeatedTest(3)
    void oneHotKeyFromManyThreadsIsExact() throws Exception {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(3_333, 1000).withClock(clock), 10);
        long admitted = Contention.platform(8, t -> {
            long[] o = Outcome.newArray();
            long n = 0;
            for (int i = 0; i < 10_000; i++) {
                if (limiter.tryAcquire("hot", o)) {
                    n++;
                }
            }
            return n;
        });
        assertThat(admitted).isEqualTo(3_333);
    }
}
