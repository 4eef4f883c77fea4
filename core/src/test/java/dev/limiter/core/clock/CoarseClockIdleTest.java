package dev.limiter.core.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The timer of a clock nobody reads goes to sleep, and the first read after that is fresh and wakes it. Runs on
 * a private clock (not the shared one other tests read) so that "nobody reads" holds.
 */
class CoarseClockIdleTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Test
    void theTimerSleepsWhileNobodyReadsAndTheNextReadIsFreshAndWakesIt() throws InterruptedException {
        CoarseClock clock = new CoarseClock().start("coarse-clock-idle-test");
        Thread timer = clock.timer();

        await("the timer parks without a time-out").atMost(PATIENCE)
                .until(() -> !clock.isTicking() && timer.getState() == Thread.State.WAITING);
        Thread.sleep(50); // the field is not refreshed while it sleeps; a read must not return it as it is

        long before = System.currentTimeMillis();
        long read = clock.millis();
        assertThat(read).isBetween(before, System.currentTimeMillis());
        assertThat(clock.isTicking()).isTrue();
        await("the timer ticks again").atMost(PATIENCE)
                .until(() -> timer.getState() == Thread.State.TIMED_WAITING || timer.getState() == Thread.State.RUNNABLE);
    }

    @Test
    void aClockReadOftenKeepsTicking() {
        CoarseClock clock = new CoarseClock().start("coarse-clock-busy-test");
        long until = System.nanoTime() + Duration.ofMillis(3 * CoarseClock.PROBE_TICKS).toNanos();
        long last = clock.millis();
        while (System.nanoTime() < until) {
            long now = clock.millis();
            assertThat(Math.abs(System.currentTimeMillis() - now)).as("lag (ms)").isLessThan(1000);
            last = Math.max(last, now);
            Thread.onSpinWait();
        }
        assertThat(clock.timer().getState()).isNotEqualTo(Thread.State.WAITING);
        assertThat(last).isGreaterThan(System.currentTimeMillis() - 1000);
    }
}
