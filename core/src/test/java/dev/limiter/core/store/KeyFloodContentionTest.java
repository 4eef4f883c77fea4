package dev.limiter.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.limiter.core.Bucket;
import dev.limiter.core.Contention;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.FixedWindowStrategy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A flood of new keys from many threads, platform and virtual, against a full store whose eviction walk is
 * claimed by one thread at a time: nobody waits for the walker, every idle slot is handed out and no live key
 * is evicted, the throttled key is never re-admitted, and every new key's request is counted exactly once.
 */
class KeyFloodContentionTest {

    private static final int MAX_KEYS = 1_000;
    private static final long WINDOW = 60_000;
    private static final int NEW_KEYS = 10 * MAX_KEYS;

    private final ManualClock clock = new ManualClock();

    /**
     * A store of {@code MAX_KEYS}: {@code idle} keys whose window has expired (the same as fresh keys), then the
     * throttled victim and live keys with their one permit spent. The clock stands still from here on.
     */
    private LocalKeyedLimiter full(RateLimitStrategy strategy, OnFull onFull, int idle) {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(strategy, LimitConfig.of(1, WINDOW).withClock(clock),
                MAX_KEYS, onFull);
        long[] out = Outcome.newArray();
        for (int i = 0; i < idle; i++) {
            assertThat(limiter.tryAcquire("old" + i, out)).isTrue();
        }
        clock.advance(2 * WINDOW);
        assertThat(limiter.tryAcquire("victim", out)).isTrue();
        assertThat(limiter.tryAcquire("victim", out)).as("throttled").isFalse();
        for (int i = idle + 1; i < MAX_KEYS; i++) {
            assertThat(limiter.tryAcquire("live" + i, out)).isTrue();
        }
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS);
        return limiter;
    }

    /** The tallies of one flood: requests of new keys admitted, and of the victim admitted. */
    private record Flood(long newKeysAdmitted, long victimAdmitted) {
    }

    /**
     * {@code threads} threads send {@link #NEW_KEYS} distinct new keys between them, each followed by a request
     * of the victim.
     */
    private static Flood flood(LocalKeyedLimiter limiter, int threads, boolean virtual) throws Exception {
        int perThread = NEW_KEYS / threads;
        assertThat(perThread * threads).isEqualTo(NEW_KEYS);
        AtomicLong victim = new AtomicLong();
        Contention.Task task = t -> {
            long[] out = Outcome.newArray();
            long admitted = 0;
            long victimAdmitted = 0;
            for (int i = 0; i < perThread; i++) {
                admitted += limiter.tryAcquire(t + ":" + i, out) ? 1 : 0;
                victimAdmitted += limiter.tryAcquire("victim", out) ? 1 : 0;
            }
            victim.addAndGet(victimAdmitted);
            return admitted;
        };
        long admitted = virtual ? Contention.virtual(threads, task) : Contention.platform(threads, task);
        return new Flood(admitted, victim.get());
    }

    /** Counter and map agree; without forced evictions the table stays full. */
    private static void assertBounded(LocalKeyedLimiter limiter) {
        assertThat(limiter.activeKeys()).isEqualTo(limiter.mapSize());
        if (limiter.onFull() == OnFull.EVICT) {
            // a forced sweep evicts a batch (forcedBatch) ahead of the insertions that need it
            assertThat(limiter.activeKeys()).isBetween(MAX_KEYS - LocalKeyedLimiter.forcedBatch(MAX_KEYS), MAX_KEYS);
        } else {
            assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS);
        }
    }

    /**
     * Half the table idle: exactly as many new keys as there were idle slots get one, every other new key's
     * request gets the choice's answer, counted once, and at the end the table holds exactly the live keys, the
     * victim and those new keys. (A new key's bucket is idle until its first check and another thread's walk may
     * evict it then; the check is then made again on the key's current state, so that slot is not given twice.)
     * The one allowance: a new key whose thread ran out of waits for a slot in flight (its holder's carrier was
     * descheduled by a loaded machine; counted by {@code slotWaitsRunOut}) may leave one slot unused, so each such
     * key lowers the exact counts by at most one. With none run out, every count is exact.
     */
    private void halfIdle(OnFull onFull, int threads, boolean virtual) throws Exception {
        int idle = MAX_KEYS / 2;
        LocalKeyedLimiter limiter = full(FixedWindowStrategy.INSTANCE, onFull, idle);
        Flood flood = flood(limiter, threads, virtual);
        String as = onFull.spelling() + (virtual ? ", virtual" : ", platform");
        assertThat(flood.victimAdmitted()).as(as).isZero();
        long answered = limiter.keysRefused() + limiter.keysAdmittedWithoutState();
        long withSlot = NEW_KEYS - answered;
        long runOut = limiter.slotWaitsRunOut();
        assertThat(withSlot).as("new keys given a slot (%s, %d ran out of waits)", as, runOut)
                .isBetween(idle - runOut, (long) idle);
        if (onFull == OnFull.REJECT) {
            assertThat(flood.newKeysAdmitted()).as(as).isEqualTo(withSlot);
            assertThat(limiter.keysAdmittedWithoutState()).as(as).isZero();
        } else {
            assertThat(flood.newKeysAdmitted()).as(as).isEqualTo(NEW_KEYS);
            assertThat(limiter.keysRefused()).as(as).isZero();
        }
        int newKeysKept = 0;
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < NEW_KEYS / threads; i++) {
                newKeysKept += limiter.bucket(t + ":" + i) != null ? 1 : 0;
            }
        }
        assertThat(newKeysKept).as("new keys holding a slot at the end (%s, %d ran out of waits)", as, runOut)
                .isBetween((int) (idle - runOut), idle);
        for (int i = 0; i < idle; i++) {
            assertThat(limiter.bucket("old" + i)).as("old%d evicted (%s)", i, as).isNull();
        }
        for (int i = idle + 1; i < MAX_KEYS; i++) {
            assertThat(limiter.bucket("live" + i)).as("live%d kept (%s)", i, as).isNotNull();
        }
        assertThat(limiter.bucket("victim")).isNotNull();
        assertThat(limiter.activeKeys()).isEqualTo(limiter.mapSize());
        assertThat(limiter.activeKeys()).as(as).isBetween((int) (MAX_KEYS - runOut), MAX_KEYS);
    }

    @RepeatedTest(3)
    void platformThreadsTakeEveryIdleSlotAndCountExactly() throws Exception {
        halfIdle(OnFull.REJECT, 8, false);
        halfIdle(OnFull.ALLOW, 8, false);
    }

    @RepeatedTest(3)
    void virtualThreadsTakeEveryIdleSlotAndCountExactly() throws Exception {
        assumeThat(Contention.virtualThreadsAvailable()).as("virtual threads need Java 21+").isTrue();
        halfIdle(OnFull.REJECT, 200, true);
        halfIdle(OnFull.ALLOW, 200, true);
    }

    /** evict-oldest under contention: every new key is admitted with state and nothing is counted. */
    @RepeatedTest(3)
    void evictOldestAdmitsEveryNewKeyOnPlatformAndVirtualThreads() throws Exception {
        for (boolean virtual : new boolean[] {false, true}) {
            if (virtual && !Contention.virtualThreadsAvailable()) {
                continue; // Java 17: the platform half still ran
            }
            LocalKeyedLimiter limiter = full(FixedWindowStrategy.INSTANCE, OnFull.EVICT, 0);
            Flood flood = flood(limiter, virtual ? 200 : 8, virtual);
            assertThat(flood.newKeysAdmitted()).isEqualTo(NEW_KEYS);
            assertThat(limiter.keysRefused()).isZero();
            assertThat(limiter.keysAdmittedWithoutState()).isZero();
            assertBounded(limiter);
        }
    }

    /**
     * The walker is held inside its walk; another thread's new key must still get its answer at once: a
     * refusal under reject (counted, the table full of live state), a slot under evict-oldest (forced from its
     * own glance, as the walker would have). A lock around the walk makes this test time out.
     */
    @ParameterizedTest
    @EnumSource(value = OnFull.class, names = {"REJECT", "EVICT"})
    void aThreadThatFindsTheWalkClaimedDoesNotWaitForIt(OnFull onFull) throws Exception {
        HeldWalk strategy = new HeldWalk();
        LocalKeyedLimiter limiter = full(strategy, onFull, 0);
        Thread walker = new Thread(() -> limiter.tryAcquire("walker's key", Outcome.newArray()), "walker");
        strategy.hold(walker);
        walker.start();
        try {
            assertThat(strategy.entered.await(30, TimeUnit.SECONDS)).as("the walker is in its walk").isTrue();
            boolean admitted = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> limiter.tryAcquire("another key", Outcome.newArray()));
            if (onFull == OnFull.REJECT) {
                assertThat(admitted).isFalse();
                assertThat(limiter.keysRefused()).isEqualTo(1);
                assertThat(limiter.emptyLaps()).as("a glance is no lap").isZero();
            } else {
                assertThat(admitted).isTrue();
                assertThat(limiter.bucket("another key")).isNotNull();
                assertThat(limiter.keysRefused()).isZero();
            }
        } finally {
            strategy.proceed.countDown();
            walker.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(walker.isAlive()).isFalse();
        assertBounded(limiter);
        if (onFull == OnFull.REJECT) {
            assertThat(limiter.keysRefused()).as("the walker's key too, after its lap").isEqualTo(2);
            assertThat(limiter.emptyLaps()).isEqualTo(1);
        }
    }

    @Test
    void theHeldWalkHoldsOnlyItsOwnThread() {
        HeldWalk strategy = new HeldWalk();
        strategy.hold(new Thread(() -> { }));
        LimitConfig config = LimitConfig.of(1, WINDOW).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.retire(bucket, config)).isTrue(); // returns: this thread is not held
        assertThat(strategy.entered.getCount()).isEqualTo(1);
    }

    /** A fixed window whose {@code retire} holds one chosen thread (the walker) until released. */
    private static final class HeldWalk extends FixedWindowDelegate {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        private volatile Thread held;

        void hold(Thread thread) {
            held = thread;
        }

        @Override
        public String name() {
            return "held-walk";
        }

        @Override
        public boolean retire(Bucket bucket, LimitConfig config) {
            if (Thread.currentThread() == held) {
                entered.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.retire(bucket, config);
        }
    }
}
