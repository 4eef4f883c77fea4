package dev.limiter.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.clock.CoarseClock;
import dev.limiter.core.clock.ManualClock;
import org.junit.jupiter.api.Test;

class LimitConfigTest {

    @Test
    void defaultsAndWithers() {
        LimitConfig config = LimitConfig.of(100, 1000);
        assertThat(config.limit()).isEqualTo(100);
        assertThat(config.windowMillis()).isEqualTo(1000);
        assertThat(config.capacity()).isEqualTo(100);
        assertThat(config.clock()).isSameAs(CoarseClock.shared());
        ManualClock clock = new ManualClock();
        LimitConfig custom = config.withCapacity(7).withClock(clock);
        assertThat(custom.capacity()).isEqualTo(7);
        assertThat(custom.clock()).isSameAs(clock);
        assertThat(custom.limit()).isEqualTo(100);
        assertThat(config.capacity()).as("immutable").isEqualTo(100);
        assertThat(custom.withLimit(50, 500).capacity()).isEqualTo(7);
        assertThat(config.withLimit(50, 500).capacity()).as("a default capacity follows the limit").isEqualTo(50);
    }

    @Test
    void fixedPointUnitsAreTheReducedRatio() {
        assertThat(LimitConfig.of(10, 60_000).unitsPerMilli()).isEqualTo(1);
        assertThat(LimitConfig.of(10, 60_000).unitsPerPermit()).isEqualTo(6_000);
        assertThat(LimitConfig.of(10_000_000, 1000).unitsPerMilli()).isEqualTo(10_000);
        assertThat(LimitConfig.of(10_000_000, 1000).unitsPerPermit()).isEqualTo(1);
        assertThat(LimitConfig.of(3, 1000).unitsPerMilli()).isEqualTo(3);
        assertThat(LimitConfig.of(3, 1000).unitsPerPermit()).isEqualTo(1000);
        assertThat(LimitConfig.of(3, 1000).capacityUnits()).isEqualTo(3000);
        assertThat(LimitConfig.of(3, 1000).unitScale()).isPositive()
                .isNotEqualTo(LimitConfig.of(6, 1000).unitScale())
                .isEqualTo(LimitConfig.of(6, 2000).unitScale());
    }

    @Test
    void rangesAreValidated() {
        assertThatThrownBy(() -> LimitConfig.of(0, 1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
        assertThatThrownBy(() -> LimitConfig.of(LimitConfig.MAX_LIMIT + 1, 1000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LimitConfig.of(1, 0)).hasMessageContaining("window");
        assertThatThrownBy(() -> LimitConfig.of(1, LimitConfig.MAX_WINDOW_MILLIS + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LimitConfig.of(1, 1000).withCapacity(0)).hasMessageContaining("capacity");
        assertThatThrownBy(() -> LimitConfig.of(1, 1000).withClock(null)).isInstanceOf(IllegalArgumentException.class);
        // capacity * unitsPerPermit must stay below 2^62
        assertThatThrownBy(() -> LimitConfig.of(1, LimitConfig.MAX_WINDOW_MILLIS).withCapacity(LimitConfig.MAX_LIMIT))
                .hasMessageContaining("too large");
        LimitConfig extreme = LimitConfig.of(LimitConfig.MAX_LIMIT, 1).withCapacity(LimitConfig.MAX_LIMIT);
        assertThat(extreme.capacityUnits()).isEqualTo(LimitConfig.MAX_LIMIT);
        LimitConfig longest = LimitConfig.of(1, LimitConfig.MAX_WINDOW_MILLIS).withCapacity(1 << 20);
        assertThat(longest.capacityUnits()).isEqualTo(LimitConfig.MAX_WINDOW_MILLIS << 20);
    }

    @Test
    void equalityIgnoresNothingButIdentityOfTheClock() {
        ManualClock clock = new ManualClock();
        assertThat(LimitConfig.of(5, 1000).withClock(clock)).isEqualTo(LimitConfig.of(5, 1000).withClock(clock))
                .hasSameHashCodeAs(LimitConfig.of(5, 1000).withClock(clock));
        assertThat(LimitConfig.of(5, 1000).sameLimits(LimitConfig.of(5, 1000).withClock(clock))).isTrue();
        assertThat(LimitConfig.of(5, 1000)).isNotEqualTo(LimitConfig.of(5, 1001));
        assertThat(LimitConfig.of(5, 1000).toString()).contains("limit=5");
    }
}
