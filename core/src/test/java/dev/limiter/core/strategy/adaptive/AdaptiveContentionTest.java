package dev.limiter.core.strategy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.limiter.core.Contention;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many threads take, hold and release the permits of one adaptive bucket, each release carrying its real latency, while
 * windows close and the limit moves under them. No permit may be lost or doubled: the calls running at once never
 * exceed the limit's bound, every admitted call's release brings the count back to exactly 0, and the limit ends
 * within its bounds. With the bounds equal the limit cannot move, and the count of calls running at once never
 * exceeds it: the bulkhead's exactness holds with sampling on.
 */
class AdaptiveContentionTest {

    private static final long RUN_NANOS = 800_000_000L;

    private static void hammer(long min, long max, boolean virtual) throws Exception {
        AdaptiveStrategy strategy = AdaptiveStrategy.of(new AdaptiveSettings("gradient", min, min));
        LimitConfig config = LimitConfig.of(max, 1_000);
        AdaptiveBucket bucket = (AdaptiveBucket) strategy.newBucket(config);
        AtomicLong running = new AtomicLong();
        AtomicLong mostAtOnce = new AtomicLong();
        Contention.Task task = t -> {
            long[] out = Outcome.newArray();
            long admitted = 0;
            long deadline = System.nanoTime() + RUN_NANOS; // long enough for several windows to close
            for (int i = 0; System.nanoTime() < deadline; i++) {
                if (!strategy.check(bucket, config, out)) {
                    continue;
                }
                long start = System.nanoTime();
                long now = running.incrementAndGet();
                mostAtOnce.accumulateAndGet(now, Math::max);
                for (int spin = (i + t) % 50; spin > 0; spin--) {
                    Thread.onSpinWait(); // a call of varying length
                }
                running.decrementAndGet();
                long end = System.nanoTime();
                strategy.release(bucket, config, end - start, end);
                admitted++;
            }
            return admitted;
        };
        long admitted = virtual ? Contention.virtual(64, task) : Contention.platform(8, task);
        long[] out = Outcome.newArray();
        assertThat(admitted).isPositive();
        assertThat(mostAtOnce.get()).as("calls running at once").isLessThanOrEqualTo(max);
        assertThat(bucket.slot0()).as("calls in flight after every release").isZero();
        assertThat(bucket.limit()).isBetween(min, max);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(bucket.limit());
        assertThat(bucket.windows()).as("windows closed under the race").isPositive();
    }

    @Test
    void aMovingLimitLosesNoPermitOnPlatformThreads() throws Exception {
        for (int round = 0; round < 3; round++) {
            hammer(2, 6, false);
        }
    }

    @Test
    void aFixedLimitIsExactWithSamplingOn() throws Exception {
        for (int round = 0; round < 3; round++) {
            hammer(3, 3, false);
        }
    }

    @Test
    void aMovingLimitLosesNoPermitOnVirtualThreads() throws Exception {
        assumeThat(Contention.virtualThreadsAvailable()).isTrue();
        hammer(2, 6, true);
        hammer(3, 3, true);
    }
}
