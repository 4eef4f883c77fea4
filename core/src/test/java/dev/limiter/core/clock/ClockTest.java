package dev.limiter.core.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClockTest {

    @Test
    void coarseClockIsSharedAndFollowsTheSystemClock() {
        CoarseClock clock = CoarseClock.shared();
        assertThat(CoarseClock.shared()).isSameAs(clock);
        long start = clock.millis();
        assertThat(Math.abs(start - System.currentTimeMillis())).isLessThan(1000);
        await().atMost(Duration.ofSeconds(5)).until(() -> clock.millis() >= start + 20);
        assertThat(Math.abs(clock.millis() - System.currentTimeMillis())).isLessThan(1000);
    }

    @Test
    void coarseClockRunsOnOneDaemonThread() {
        CoarseClock.shared().millis();
        long timers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("limiter-coarse-clock"))
                .peek(t -> assertThat(t.isDaemon()).isTrue())
                .count();
        assertThat(timers).isEqualTo(1);
    }

    @Test
    void manualClockMovesOnlyByHand() {
        ManualClock clock = new ManualClock(1000);
        assertThat(clock.millis()).isEqualTo(1000);
        clock.advance(5);
        assertThat(clock.millis()).isEqualTo(1005);
        clock.advance(-10);
        assertThat(clock.millis()).isEqualTo(995);
        clock.set(42);
        assertThat(clock.millis()).isEqualTo(42);
        assertThat(new ManualClock().millis()).isEqualTo(1_767_225_600_000L);
    }

    @Test
    void systemClockIsTheSystemClock() {
        long before = System.currentTimeMillis();
        long now = SystemClock.INSTANCE.millis();
        assertThat(now).isBetween(before, System.currentTimeMillis());
    }
}
