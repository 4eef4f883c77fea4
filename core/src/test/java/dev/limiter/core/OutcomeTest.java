package dev.limiter.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OutcomeTest {

    @Test
    void allowAndRejectFillEveryField() {
        long[] out = Outcome.newArray();
        assertThat(out).hasSize(Outcome.SIZE);
        assertThat(Outcome.allow(out, 7, 1_000_001, 10)).isTrue();
        assertThat(out).containsExactly(7, 1001, 0, 10, 0);
        assertThat(Outcome.reject(out, -3, 2_000_000, 0, 10)).isFalse();
        assertThat(out).as("remaining never negative, retry-after at least 1").containsExactly(0, 2000, 1, 10, 0);
    }

    @Test
    void secondsAreRoundedUp() {
        assertThat(Outcome.ceilSeconds(0)).isZero();
        assertThat(Outcome.ceilSeconds(1)).isEqualTo(1);
        assertThat(Outcome.ceilSeconds(1000)).isEqualTo(1);
        assertThat(Outcome.ceilSeconds(-1)).isZero();
        long[] out = Outcome.newArray();
        out[Outcome.RETRY_AFTER_MILLIS] = 1001;
        assertThat(Outcome.retryAfterSeconds(out)).isEqualTo(2);
        out[Outcome.RETRY_AFTER_MILLIS] = 0;
        assertThat(Outcome.retryAfterSeconds(out)).isEqualTo(1);
    }
}
