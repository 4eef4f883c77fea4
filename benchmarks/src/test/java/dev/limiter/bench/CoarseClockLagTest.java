package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.clock.CoarseClock;
import org.junit.jupiter.api.Test;

/** The lag sampler samples what it says and its percentiles index the sorted samples correctly. */
class CoarseClockLagTest {

    @Test
    void percentilesOfSortedLags() {
        long[] lags = new long[1000];
        for (int i = 0; i < lags.length; i++) {
            lags[i] = i < 990 ? 0 : i < 999 ? 1 : 7;
        }
        CoarseClockLag.Result result = new CoarseClockLag.Result(lags, 3.5);
        assertThat(result.percentile(50)).isZero();
        assertThat(result.percentile(99)).isZero();
        assertThat(result.percentile(99.9)).isEqualTo(1);
        assertThat(result.percentile(100)).isEqualTo(7);
        assertThat(result.report("idle", "0.1", "0.2")).contains("samples\t1000", "lag max ms\t7",
                "samples lagging >= 2 ms\t0.100 %", "longest stall ms\t3.5");
    }

    @Test
    void samplesTheSharedClockForTheGivenTime() {
        long started = System.nanoTime();
        CoarseClockLag.Result result = CoarseClockLag.sample(CoarseClock.shared(), 300_000_000L);
        assertThat((System.nanoTime() - started) / 1_000_000).isBetween(290L, 10_000L);
        assertThat(result.lags().length).isGreaterThan(100); // one sample per ~0.1-0.2 ms
        assertThat(result.lags()[0]).as("the coarse clock is never ahead of the system clock").isGreaterThanOrEqualTo(0);
    }
}
