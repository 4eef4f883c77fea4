package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void smallValuesAreExact() {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 1; i <= 50; i++) {
            h.record(i);
        }
        assertThat(h.percentile(0.5)).isEqualTo(25);
        assertThat(h.percentile(1.0)).isEqualTo(50);
        assertThat(h.count()).isEqualTo(50);
    }

    @Test
    void largeValuesAreWithinThreePercentAndNeverOptimistic() {
        for (long v : new long[] {64, 100, 1_000, 12_345, 999_999, 50_000_000L}) {
            LatencyHistogram h = new LatencyHistogram();
            h.record(v);
            assertThat(h.percentile(0.99)).as("value %d", v).isGreaterThanOrEqualTo(v)
                    .isLessThanOrEqualTo((long) (v * 1.0315) + 1);
        }
    }

    @Test
    void percentilesSplitTheDistribution() {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < 990; i++) {
            h.record(40);
        }
        for (int i = 0; i < 10; i++) {
            h.record(5_000);
        }
        assertThat(h.percentile(0.5)).isEqualTo(40);
        assertThat(h.percentile(0.99)).isEqualTo(40);
        assertThat(h.percentile(0.999)).isBetween(5_000L, 5_200L);
        h.reset();
        assertThat(h.percentile(0.5)).isZero();
    }

    @Test
    void bucketsAreContiguousAndIncreasing() {
        long previous = -1;
        for (long v = 0; v < 1 << 20; v += 7) {
            int index = LatencyHistogram.index(v);
            assertThat(LatencyHistogram.upperEdge(index)).isGreaterThanOrEqualTo(v);
            if (index > 0) {
                assertThat(LatencyHistogram.upperEdge(index - 1)).isLessThan(v);
            }
            assertThat((long) index).isGreaterThanOrEqualTo(previous);
            previous = index;
        }
        assertThat(LatencyHistogram.index(Long.MAX_VALUE)).isEqualTo(LatencyHistogram.index(Long.MAX_VALUE - 1));
    }

    @Test
    void cumulativeCountsBelowPowersOfTwoAreExact() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v : new long[] {0, 10, 63, 64, 127, 128, 129, 1023, 1024, 5_000_000, 1L << 45}) {
            h.record(v);
        }
        long[] bounds = {64, 128, 1024, 2048, 1L << 20};
        assertThat(h.cumulativeBelow(bounds)).containsExactly(3, 5, 8, 9, 9, 11);
        assertThat(new LatencyHistogram().cumulativeBelow(bounds)).containsExactly(0, 0, 0, 0, 0, 0);
    }
}
