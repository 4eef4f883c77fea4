package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.Test;

/** The tally that keeps the benchmarks honest fails an iteration once calls leave the measured path. */
class CallerThreadTest {

    @Test
    void oneRejectionInAFewCallsOnTheAllowedPathFailsTheIteration() {
        CallerThread thread = new CallerThread();
        assertThat(thread.expectAllowed(true)).isTrue();
        assertThat(thread.expectAllowed(false)).isFalse();

        assertThatIllegalStateException().isThrownBy(thread::noCallLeftTheMeasuredPath)
                .withMessageContaining("1 of 2 calls");
        thread.noCallLeftTheMeasuredPath(); // the next iteration starts clean
    }

    @Test
    void oneAdmissionOnTheRejectedPathFailsTheIteration() {
        CallerThread thread = new CallerThread();
        thread.expectRejected(false);
        thread.expectRejected(true);

        assertThatIllegalStateException().isThrownBy(thread::noCallLeftTheMeasuredPath);
    }

    @Test
    void oneStrayCallInAHundredIsTolerated() {
        CallerThread thread = new CallerThread();
        for (int i = 0; i < 100_000; i++) {
            thread.expectAllowed(i % 100 != 0);
        }

        thread.noCallLeftTheMeasuredPath();
    }

    @Test
    void twoStrayCallsInAHundredAreNot() {
        CallerThread thread = new CallerThread();
        for (int i = 0; i < 100_000; i++) {
            thread.expectAllowed(i % 50 != 0);
        }

        assertThatIllegalStateException().isThrownBy(thread::noCallLeftTheMeasuredPath)
                .withMessageContaining("2000 of 100000");
    }
}
