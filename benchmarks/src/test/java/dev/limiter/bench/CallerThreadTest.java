package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.Test;

/** The tally that keeps the benchmarks honest fails an iteration with a single call off the measured path. */
class CallerThreadTest {

    @Test
    void oneRejectionOnTheAllowedPathFailsTheIteration() {
        CallerThread thread = new CallerThread();
        assertThat(thread.expectAllowed(true)).isTrue();
        assertThat(thread.expectAllowed(false)).isFalse();

        assertThatIllegalStateException().isThrownBy(thread::noCallLeftTheMeasuredPath)
                .withMessageContaining("1 calls");
        thread.noCallLeftTheMeasuredPath(); // the next iteration starts clean
    }

    @Test
    void oneAdmissionOnTheRejectedPathFailsTheIteration() {
        CallerThread thread = new CallerThread();
        thread.expectRejected(false);
        thread.expectRejected(true);

        assertThatIllegalStateException().isThrownBy(thread::noCallLeftTheMeasuredPath);
    }
}
