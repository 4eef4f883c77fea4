package dev.limiter.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.Bucket;
import dev.limiter.core.Contention;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.ConcurrencyStrategy;
import dev.limiter.core.strategy.FixedWindowStrategy;
import dev.limiter.core.strategy.LeakyBucketStrategy;
import dev.limiter.core.strategy.SlidingLogStrategy;
import dev.limiter.core.strategy.SlidingWindowStrategy;
import dev.limiter.core.strategy.TokenBucketStrategy;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** A flood of new keys against a store full of live state: what each {@link OnFull} choice promises. */
class OnFullTest {

    private static final int MAX_KEYS = 100;
    private static final long WINDOW = 60_000;

    private final ManualClock clock = new ManualClock();
    private final long[] out = Outcome.newArray();

    static Stream<RateLimitStrategy> rateStrategies() {
        return Stream.of(FixedWindowStrategy.INSTANCE, SlidingWindowStrategy.INSTANCE, TokenBucketStrategy.INSTANCE,
                LeakyBucketStrategy.INSTANCE, SlidingLogStrategy.INSTANCE);
    }

    /** A full store: the victim and {@code MAX_KEYS - 1} other keys, each with its one permit spent. */
    private LocalKeyedLimiter fullOfLiveState(RateLimitStrategy strategy, OnFull onFull) {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(strategy,
                LimitConfig.of(1, WINDOW).withCapacity(1).withClock(clock), MAX_KEYS, onFull);
        assertThat(limiter.tryAcquire("victim", out)).isTrue();
        assertThat(limiter.tryAcquire("victim", out)).as("throttled").isFalse();
        for (int i = 1; i < MAX_KEYS; i++) {
            assertThat(limiter.tryAcquire("live" + i, out)).isTrue();
        }
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS);
        return limiter;
    }

    /** Sends one request for each of {@code 10 * MAX_KEYS} new keys, the victim after each; returns admissions. */
    private int flood(LocalKeyedLimiter limiter) {
        int admitted = 0;
        for (int i = 0; i < 10 * MAX_KEYS; i++) {
            admitted += limiter.tryAcquire("flood" + i, out) ? 1 : 0;
            assertThat(limiter.tryAcquire("victim", out)).as("victim after %d new keys", i + 1).isFalse();
        }
        return admitted;
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void rejectKeepsAThrottledKeyThrottledAndRefusesEveryNewKey(RateLimitStrategy strategy) {
        LocalKeyedLimiter limiter = fullOfLiveState(strategy, OnFull.REJECT);
        assertThat(flood(limiter)).isZero();
        assertThat(limiter.keysRefused()).isEqualTo(10 * MAX_KEYS);
        assertThat(limiter.keysAdmittedWithoutState()).isZero();
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS).isEqualTo(limiter.mapSize());
        assertThat(limiter.bucket("flood0")).isNull();
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void allowKeepsAThrottledKeyThrottledAndAdmitsNewKeysWithoutState(RateLimitStrategy strategy) {
        LocalKeyedLimiter limiter = fullOfLiveState(strategy, OnFull.ALLOW);
        assertThat(flood(limiter)).isEqualTo(10 * MAX_KEYS);
        assertThat(limiter.tryAcquire("flood0", out)).as("no state: not limited either").isTrue();
        assertThat(limiter.keysAdmittedWithoutState()).isEqualTo(10 * MAX_KEYS + 1);
        assertThat(limiter.keysRefused()).isZero();
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS).isEqualTo(limiter.mapSize());
        assertThat(limiter.bucket("flood0")).isNull();
        limiter.release("flood0"); // nothing held: harmless
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void evictOldestAdmitsEveryNewKeyAndResetsTheThrottledKey(RateLimitStrategy strategy) {
        LocalKeyedLimiter limiter = fullOfLiveState(strategy, OnFull.EVICT);
        for (int i = 0; i < 10 * MAX_KEYS; i++) {
            assertThat(limiter.tryAcquire("flood" + i, out)).isTrue();
        }
        assertThat(limiter.bucket("victim")).as("evicted with live state").isNull();
        assertThat(limiter.tryAcquire("victim", out)).as("documented: its budget is reset").isTrue();
        assertThat(limiter.keysRefused()).isZero();
        assertThat(limiter.keysAdmittedWithoutState()).isZero();
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS).isEqualTo(limiter.mapSize());
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void keysWhoseStateExpiredAreEvictedBeforeAnyChoiceApplies(RateLimitStrategy strategy) {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(strategy,
                LimitConfig.of(1, WINDOW).withCapacity(1).withClock(clock), MAX_KEYS, OnFull.REJECT);
        for (int i = 0; i < MAX_KEYS / 2; i++) {
            assertThat(limiter.tryAcquire("old" + i, out)).isTrue();
        }
        clock.advance(2 * WINDOW); // every old key's window expired / bucket refilled: same as a fresh key
        assertThat(limiter.tryAcquire("victim", out)).isTrue();
        for (int i = 1; i < MAX_KEYS / 2; i++) {
            assertThat(limiter.tryAcquire("live" + i, out)).isTrue();
        }
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS);
        for (int i = 0; i < MAX_KEYS / 2; i++) {
            assertThat(limiter.tryAcquire("new" + i, out)).as("new%d takes an idle slot", i).isTrue();
            assertThat(limiter.tryAcquire("victim", out)).isFalse();
        }
        assertThat(limiter.keysRefused()).isZero();
        for (int i = 0; i < MAX_KEYS / 2; i++) {
            assertThat(limiter.bucket("old" + i)).as("old%d evicted", i).isNull();
            assertThat(limiter.bucket("new" + i)).as("new%d kept", i).isNotNull();
        }
        assertThat(limiter.tryAcquire("one-too-many", out)).as("only live state left").isFalse();
        assertThat(limiter.keysRefused()).isEqualTo(1);
        assertThat(limiter.tryAcquire("victim", out)).isFalse();
    }

    @Test
    void aFloodWalksTheFullTableOncePerMillisecondNotOncePerNewKey() {
        LocalKeyedLimiter limiter = fullOfLiveState(FixedWindowStrategy.INSTANCE, OnFull.REJECT);
        assertThat(flood(limiter)).isZero();
        assertThat(limiter.emptyLaps()).as("one lap for the whole flood within one millisecond").isEqualTo(1);
        clock.advance(1);
        assertThat(limiter.tryAcquire("next-millisecond", out)).isFalse();
        assertThat(limiter.emptyLaps()).as("a new millisecond walks again").isEqualTo(2);
        clock.advance(2 * WINDOW);
        assertThat(limiter.tryAcquire("after-the-window", out)).as("expired state is found at once").isTrue();
        assertThat(limiter.keysRefused()).isEqualTo(10L * MAX_KEYS + 1);
    }

    /**
     * Under evict-oldest a table full of live state is walked once per millisecond too: after a lap found no idle
     * key, the forced batches of that millisecond come from a sample each, not from another lap.
     */
    @Test
    void anEvictOldestFloodWalksALapOncePerMillisecondThenSamples() {
        CountingRetire strategy = new CountingRetire();
        LocalKeyedLimiter limiter = fullOfLiveState(strategy, OnFull.EVICT);
        int lap = MAX_KEYS + LocalKeyedLimiter.SAMPLE; // the walk's budget on a full table
        assertThat(LocalKeyedLimiter.forcedBatch(MAX_KEYS)).isEqualTo(1);
        long before = strategy.retires;
        for (int i = 0; i < 10 * MAX_KEYS; i++) {
            assertThat(limiter.tryAcquire("flood" + i, out)).isTrue();
        }
        assertThat(strategy.retires - before).as("one lap, then a sample per new key")
                .isEqualTo(lap + (10L * MAX_KEYS - 1) * LocalKeyedLimiter.SAMPLE);
        clock.advance(1);
        before = strategy.retires;
        assertThat(limiter.tryAcquire("next-millisecond", out)).isTrue();
        assertThat(strategy.retires - before).as("a new millisecond walks a lap again").isEqualTo(lap);
        assertThat(limiter.keysRefused()).isZero();
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS).isEqualTo(limiter.mapSize());
    }

    /** A fixed window that counts the eviction hand's {@code retire} calls (single-threaded tests). */
    private static final class CountingRetire extends FixedWindowDelegate {
        long retires;

        @Override
        public String name() {
            return "counting-retire";
        }

        @Override
        public boolean retire(Bucket bucket, LimitConfig config) {
            retires++;
            return super.retire(bucket, config);
        }
    }

    @Test
    void aRefusalSaysNothingIsLeftAndToRetryAfterAWindow() {
        LocalKeyedLimiter limiter = fullOfLiveState(FixedWindowStrategy.INSTANCE, OnFull.REJECT);
        long now = clock.millis();
        assertThat(limiter.tryAcquire("new", out)).isFalse();
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(WINDOW);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(Outcome.ceilSeconds(now + WINDOW));
        assertThat(out[Outcome.LIMIT]).isEqualTo(1);
        limiter.onFull(OnFull.ALLOW);
        assertThat(limiter.tryAcquire("new", out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isZero();
        assertThat(out[Outcome.LIMIT]).isEqualTo(1);
    }

    @Test
    void aChangedChoiceAppliesToTheNextNewKeyAndKeepsEveryKeysState() {
        LocalKeyedLimiter limiter = fullOfLiveState(TokenBucketStrategy.INSTANCE, OnFull.EVICT);
        limiter.onFull(OnFull.REJECT);
        assertThat(limiter.onFull()).isEqualTo(OnFull.REJECT);
        assertThat(limiter.tryAcquire("new", out)).isFalse();
        assertThat(limiter.tryAcquire("victim", out)).isFalse();
        assertThat(limiter.activeKeys()).isEqualTo(MAX_KEYS);
        limiter.onFull(OnFull.EVICT);
        assertThat(limiter.tryAcquire("new", out)).isTrue();
        assertThat(limiter.keysRefused()).isEqualTo(1);
        assertThatThrownBy(() -> limiter.onFull(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE, LimitConfig.of(1, 1), 1,
                null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theOldFactoryKeepsEvictingLiveKeys() {
        assertThat(LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE, LimitConfig.of(1, 1), 1).onFull())
                .isEqualTo(OnFull.EVICT);
    }

    @ParameterizedTest
    @EnumSource(OnFull.class)
    void aBulkheadFullOfCallsInFlightRefusesNewKeysUnderEveryChoice(OnFull onFull) {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(ConcurrencyStrategy.INSTANCE,
                LimitConfig.of(1, 1000).withClock(clock), 3, onFull);
        for (String key : new String[] {"a", "b", "c"}) {
            assertThat(limiter.tryAcquire(key, out)).isTrue();
        }
        assertThat(limiter.tryAcquire("d", out)).isFalse();
        limiter.release("d"); // the refused call holds nothing: its release must not free a's, b's or c's permit
        assertThat(limiter.tryAcquire("a", out)).isFalse();
        assertThat(limiter.keysRefused()).isEqualTo(1);
        assertThat(limiter.keysAdmittedWithoutState()).isZero();
        limiter.release("b");
        assertThat(limiter.tryAcquire("d", out)).as("b is idle now and goes first").isTrue();
        assertThat(limiter.bucket("b")).isNull();
    }

    /**
     * Many threads insert distinct new keys into a store full of live state while asking for the throttled
     * victim: the victim is never admitted, and every new key's request is refused (or admitted without state)
     * exactly once.
     */
    @RepeatedTest(3)
    void aConcurrentFloodNeverReadmitsTheVictimAndCountsExactly() throws Exception {
        for (OnFull onFull : new OnFull[] {OnFull.REJECT, OnFull.ALLOW}) {
            int maxKeys = 1_000;
            int threads = 8;
            int perThread = 10 * maxKeys / threads;
            LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                    LimitConfig.of(1, WINDOW).withClock(clock), maxKeys, onFull);
            assertThat(limiter.tryAcquire("victim", out)).isTrue();
            for (int i = 1; i < maxKeys; i++) {
                assertThat(limiter.tryAcquire("live" + i, out)).isTrue();
            }
            long victimAdmitted = Contention.platform(threads, t -> {
                long[] o = Outcome.newArray();
                long n = 0;
                for (int i = 0; i < perThread; i++) {
                    limiter.tryAcquire(t + ":" + i, o);
                    n += limiter.tryAcquire("victim", o) ? 1 : 0;
                }
                return n;
            });
            long newKeys = (long) threads * perThread;
            assertThat(victimAdmitted).as(onFull.spelling()).isZero();
            assertThat(limiter.keysRefused() + limiter.keysAdmittedWithoutState()).isEqualTo(newKeys);
            assertThat(onFull == OnFull.REJECT ? limiter.keysRefused() : limiter.keysAdmittedWithoutState())
                    .isEqualTo(newKeys);
            assertThat(limiter.activeKeys()).isEqualTo(maxKeys).isEqualTo(limiter.mapSize());
        }
    }
}
