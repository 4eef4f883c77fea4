package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.store.LocalKeyedLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wall clock stepped (NTP, a VM resumed from a snapshot, an operator's {@code date -s}) while a greedy client
 * keeps asking: every rate strategy, through the keyed store, against the same traffic on an unstepped clock.
 *
 * <p>The client lives on its own, continuous time ("real" time, ticks of a hundredth of a window) and takes every
 * permit offered at each tick; the limiter reads a {@link ManualClock} that follows real time and jumps once.
 * Comparing the run with the jump against the run without it isolates what the step itself does:
 * <ul>
 *   <li>no burst: in any span of one window of real time, at most one budget more than the strategy's own worst
 *       case without a step (a step forward starts a fresh window or refills the bucket: one fresh budget, never
 *       more; a fixed or sliding window stepped back more than a window also starts afresh);</li>
 *   <li>no stuck key: after the step the longest real-time gap between two admissions is at most one window
 *       longer than without it (a step back never makes a key wait for the old time), and a rejection never
 *       tells the client to come back in an hour;</li>
 *   <li>over the whole run, at most two budgets fewer or more than without the step;</li>
 *   <li>no exception, no negative remaining.</li>
 * </ul>
 * Steps of exactly an hour keep windows aligned; an hour and 370 ms shifts their phase; 300 ms back is the small
 * step that can cross a window boundary.
 */
class ClockStepTest {

    private static final long START = 1_767_225_600_000L; // a whole day: windows aligned with real time
    private static final long WINDOW = 1000;
    private static final long LIMIT = 10;
    private static final int TICKS_PER_WINDOW = 100;
    private static final int WINDOWS = 20;
    private static final long HOUR = 3_600_000L;

    static Stream<Arguments> steps() {
        List<Arguments> cases = new ArrayList<>();
        for (Strategy strategy : List.of(Strategy.FIXED_WINDOW, Strategy.SLIDING_WINDOW, Strategy.TOKEN_BUCKET,
                Strategy.LEAKY_BUCKET, Strategy.SLIDING_LOG)) {
            for (long step : new long[] {-HOUR, HOUR, -(HOUR + 370), HOUR + 370, -300}) {
                for (int phase : new int[] {3, 50, 97}) { // where in a window (hundredths) the step happens
                    cases.add(Arguments.of(strategy, step, phase));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} step {1} ms at {2}/100 of a window")
    @MethodSource("steps")
    void aStepGrantsAtMostOneBudgetAndNeverSticks(Strategy strategy, long step, int phase) {
        int stepTick = 10 * TICKS_PER_WINDOW + phase;
        Run steady = Run.of(strategy, 0, stepTick);
        Run stepped = Run.of(strategy, step, stepTick);
        String what = strategy.id() + ", step " + step + " ms at tick " + stepTick + ": " + stepped;

        System.out.println(what + " (unstepped: " + steady + ")");
        // the unstepped worst case is two budgets in a window: the fixed window's boundary (end of one window,
        // start of the next), which aligned greedy traffic never shows, or a full bucket plus its refill
        long unstepped = Math.max(steady.maxPerWindow(), 2 * LIMIT);
        assertThat(stepped.maxPerWindow()).as(what).isLessThanOrEqualTo(unstepped + LIMIT);
        assertThat(stepped.longestGapAfter(stepTick)).as(what)
                .isLessThanOrEqualTo(steady.longestGapAfter(stepTick) + TICKS_PER_WINDOW);
        // over the run: the step's fresh budget, plus a window start that a phase-shifting step brings inside the
        // run's end (windows end 370 ms earlier in real time); a step back costs a bucket at most its fill
        assertThat(stepped.total()).as(what).isBetween(steady.total() - 2 * LIMIT, steady.total() + 2 * LIMIT);
        // a rejection's retry-after and reset stay within two windows of the new time, whichever way it went
        assertThat(stepped.longestRetryAfter).as(what).isBetween(1L, 2 * WINDOW);
        assertThat(stepped.furthestReset).as(what).isLessThanOrEqualTo(2 * WINDOW + 1000);
        assertThat(stepped.minRemaining).as(what).isNotNegative();
    }

    /** Traffic ends where it started: the run without a step admits the rule's rate. */
    @Test
    void theUnsteppedRunAdmitsTheRate() {
        for (Strategy strategy : List.of(Strategy.FIXED_WINDOW, Strategy.SLIDING_WINDOW, Strategy.TOKEN_BUCKET,
                Strategy.LEAKY_BUCKET, Strategy.SLIDING_LOG)) {
            Run steady = Run.of(strategy, 0, 0);
            // 20 windows at 10 a window, plus the first full bucket for the bucket strategies; the sliding
            // window's weighted previous count holds a greedy client a little below the limit
            assertThat(steady.total()).as(strategy.id()).isBetween((WINDOWS - 2) * LIMIT, (WINDOWS + 1) * LIMIT);
        }
    }

    /** The bulkhead does not read time to admit: a step either way keeps the permits exact. */
    @Test
    void concurrencyIgnoresSteps() {
        ManualClock clock = new ManualClock(START);
        KeyedLimiter limiter = LocalKeyedLimiter.create(Strategy.CONCURRENCY.get(),
                LimitConfig.of(3, WINDOW).withClock(clock), 16);
        long[] out = Outcome.newArray();
        for (long step : new long[] {-HOUR, 2 * HOUR, -(HOUR + 370)}) {
            for (int i = 0; i < 3; i++) {
                assertThat(limiter.tryAcquire("k", out)).isTrue();
            }
            clock.advance(step);
            assertThat(limiter.tryAcquire("k", out)).isFalse();
            assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(WINDOW);
            limiter.release("k");
            assertThat(limiter.tryAcquire("k", out)).isTrue();
            assertThat(limiter.tryAcquire("k", out)).isFalse();
            for (int i = 0; i < 3; i++) {
                limiter.release("k");
            }
            assertThat(limiter.remaining("k", out)).isEqualTo(3);
        }
    }

    /** One greedy client over {@value #WINDOWS} windows of real time, the limiter's clock stepped once. */
    private static final class Run {
        final int[] admitted = new int[WINDOWS * TICKS_PER_WINDOW];
        long longestRetryAfter;
        long furthestReset;
        long minRemaining = Long.MAX_VALUE;

        static Run of(Strategy strategy, long step, int stepTick) {
            ManualClock clock = new ManualClock(START);
            LocalKeyedLimiter limiter = LocalKeyedLimiter.create(strategy.get(),
                    LimitConfig.of(LIMIT, WINDOW).withClock(clock), 16);
            long[] out = Outcome.newArray();
            Run run = new Run();
            long tickMillis = WINDOW / TICKS_PER_WINDOW;
            for (int tick = 0; tick < run.admitted.length; tick++) {
                long now = START + tick * tickMillis + (tick >= stepTick ? step : 0);
                clock.set(now);
                for (int i = 0; i < 10 * LIMIT; i++) { // greedy, but a broken limiter must not loop forever
                    boolean allowed = limiter.tryAcquire("k", out);
                    run.minRemaining = Math.min(run.minRemaining, out[Outcome.REMAINING]);
                    run.furthestReset = Math.max(run.furthestReset, out[Outcome.RESET_EPOCH_SECONDS] * 1000 - now);
                    if (!allowed) {
                        run.longestRetryAfter = Math.max(run.longestRetryAfter, out[Outcome.RETRY_AFTER_MILLIS]);
                        break;
                    }
                    run.admitted[tick]++;
                }
                limiter.evictIdle(); // the store's idle test sees the stepped clock too: it must not reset a key
            }
            return run;
        }

        long total() {
            long sum = 0;
            for (int n : admitted) {
                sum += n;
            }
            return sum;
        }

        /** Most admissions in any span of one window of real time. */
        long maxPerWindow() {
            long max = 0;
            long span = 0;
            for (int tick = 0; tick < admitted.length; tick++) {
                span += admitted[tick];
                if (tick >= TICKS_PER_WINDOW) {
                    span -= admitted[tick - TICKS_PER_WINDOW];
                }
                max = Math.max(max, span);
            }
            return max;
        }

        /** Longest run of ticks without an admission, from {@code fromTick} on. */
        int longestGapAfter(int fromTick) {
            int longest = 0;
            int gap = 0;
            for (int tick = fromTick; tick < admitted.length; tick++) {
                gap = admitted[tick] > 0 ? 0 : gap + 1;
                longest = Math.max(longest, gap);
            }
            return longest;
        }

        @Override
        public String toString() {
            return "total " + total() + ", max per window " + maxPerWindow() + ", longest retry-after "
                    + longestRetryAfter + " ms";
        }
    }
}
