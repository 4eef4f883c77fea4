package dev.limiter.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.FixedWindowStrategy;
import dev.limiter.core.strategy.LeakyBucketStrategy;
import dev.limiter.core.strategy.SlidingLogStrategy;
import dev.limiter.core.strategy.SlidingWindowStrategy;
import dev.limiter.core.strategy.TokenBucketStrategy;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Several limits on one key, decided as one: every limit admits, or none is charged. */
class AllOfTest {

    private static final long START = 1_767_225_600_000L;

    private final ManualClock clock = new ManualClock(START);
    private final long[] out = Outcome.newArray();
    private final long[] scratch = Outcome.newArray();
    private final long[] stamps = new long[4];

    static Stream<RateLimitStrategy> rateStrategies() {
        return Stream.of(FixedWindowStrategy.INSTANCE, SlidingWindowStrategy.INSTANCE, TokenBucketStrategy.INSTANCE,
                LeakyBucketStrategy.INSTANCE, SlidingLogStrategy.INSTANCE);
    }

    private KeyedLimiter limiter(RateLimitStrategy strategy, long limit, long windowMillis) {
        LimitConfig config = LimitConfig.of(limit, windowMillis).withClock(clock);
        if (strategy.usesCapacity()) {
            config = config.withCapacity(limit);
        }
        return LocalKeyedLimiter.create(strategy, config, 100);
    }

    private List<String> burst(KeyedLimiter[] limits, int calls) {
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            int answer = AllOf.tryAcquire(limits, "k", 1, out, scratch, stamps);
            answers.add(AllOf.admitted(answer) ? "200" : "429");
        }
        return answers;
    }

    /**
     * Two per second and four per hour: a refused call takes nothing from the hour; once both are spent, the
     * rejection reports the hour (the retry that can succeed).
     */
    @ParameterizedTest
    @MethodSource("rateStrategies")
    void aRejectedCallUsesNoBudgetOfAnyLimit(RateLimitStrategy strategy) {
        KeyedLimiter second = limiter(strategy, 2, 1_000);
        KeyedLimiter hour = limiter(strategy, 4, 3_600_000);
        KeyedLimiter[] limits = {hour, second}; // the hour first: each refused call must give its permit back

        assertThat(burst(limits, 5)).containsExactly("200", "200", "429", "429", "429");
        assertThat(hour.remaining("k", scratch)).isEqualTo(2);

        clock.advance(2_000); // past the second window and the sliding window's weight of it
        assertThat(burst(limits, 2)).containsExactly("200", "200");
        int answer = AllOf.tryAcquire(limits, "k", 1, out, scratch, stamps);
        assertThat(AllOf.admitted(answer)).isFalse();
        assertThat(AllOf.index(answer)).as("the hour refuses").isZero();
        assertThat(out[Outcome.LIMIT]).isEqualTo(4);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isGreaterThan(1_000);
    }

    @Test
    void aRejectionReportsTheRefusingLimitARetryWaitsLongestFor() {
        KeyedLimiter second = limiter(FixedWindowStrategy.INSTANCE, 1, 1_000);
        KeyedLimiter hour = limiter(FixedWindowStrategy.INSTANCE, 1, 3_600_000);
        KeyedLimiter[] limits = {second, hour};
        assertThat(AllOf.admitted(AllOf.tryAcquire(limits, "k", 1, out, scratch, stamps))).isTrue();
        int answer = AllOf.tryAcquire(limits, "k", 1, out, scratch, stamps);
        assertThat(answer).isEqualTo(~1); // the second refused first, but a retry in a second would fail too
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(3_600_000);
    }

    @Test
    void theBindingLimitOfAnAdmissionIsTheOneWithTheLeastLeft() {
        KeyedLimiter second = limiter(FixedWindowStrategy.INSTANCE, 10, 1_000);
        KeyedLimiter hour = limiter(FixedWindowStrategy.INSTANCE, 12, 3_600_000);
        KeyedLimiter[] limits = {second, hour};
        int answer = AllOf.tryAcquire(limits, "k", 5, out, scratch, stamps);
        assertThat(answer).isZero(); // 5 left of 10 against 7 of 12
        assertThat(out[Outcome.REMAINING]).isEqualTo(5);
        clock.advance(1_000);
        answer = AllOf.tryAcquire(limits, "k", 5, out, scratch, stamps);
        assertThat(answer).isEqualTo(1); // 5 of 10 against 2 of 12
        assertThat(out[Outcome.REMAINING]).isEqualTo(2);
        assertThat(out[Outcome.LIMIT]).isEqualTo(12);
    }

    @Test
    void aCostAboveWhatIsLeftIsRejectedAndTakesNothing() {
        KeyedLimiter minute = limiter(TokenBucketStrategy.INSTANCE, 100, 60_000);
        KeyedLimiter[] limits = {minute};
        assertThat(AllOf.admitted(AllOf.tryAcquire(limits, "k", 51, out, scratch, stamps))).isTrue();
        assertThat(AllOf.admitted(AllOf.tryAcquire(limits, "k", 50, out, scratch, stamps))).isFalse();
        assertThat(minute.remaining("k", scratch)).isEqualTo(49);
    }

    @Test
    void aFailingLimitTakesNothingFromTheOthers() {
        KeyedLimiter second = limiter(FixedWindowStrategy.INSTANCE, 10, 1_000);
        KeyedLimiter broken = (KeyedLimiter) Proxy.newProxyInstance(KeyedLimiter.class.getClassLoader(),
                new Class<?>[] {KeyedLimiter.class}, (proxy, method, args) -> {
                    throw new IllegalStateException("store down");
                });
        KeyedLimiter[] limits = {second, broken};
        assertThatThrownBy(() -> AllOf.tryAcquire(limits, "k", 3, out, scratch, stamps))
                .hasMessage("store down");
        assertThat(second.remaining("k", scratch)).isEqualTo(10);
    }
}
