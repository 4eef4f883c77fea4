package dev.limiter.agent.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

/** {@code Retry-After} as RFC 9110 writes it: seconds, or an HTTP date; anything else pauses nothing. */
class RetryAfterTest {

    private static final long NOW = ZonedDateTime.of(2026, 12, 5, 12, 0, 0, 0, ZoneOffset.UTC).toInstant()
            .toEpochMilli();

    @Test
    void secondsAreReadAsSeconds() {
        assertThat(RetryAfter.nanos("1", NOW)).isEqualTo(1_000_000_000L);
        assertThat(RetryAfter.nanos(" 120 ", NOW)).isEqualTo(120_000_000_000L);
        assertThat(RetryAfter.nanos("0", NOW)).as("retry now: no pause").isEqualTo(-1);
    }

    @Test
    void anHttpDateIsReadAsTheTimeLeftUntilIt() {
        String inTenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.of(2026, 12, 5, 12, 0, 10, 0, ZoneOffset.UTC));
        assertThat(inTenSeconds).isEqualTo("Sat, 5 Dec 2026 12:00:10 GMT");
        assertThat(RetryAfter.nanos(inTenSeconds, NOW)).isEqualTo(10_000_000_000L);
        assertThat(RetryAfter.nanos("Sat, 05 Dec 2026 12:00:10 GMT", NOW)).isEqualTo(10_000_000_000L);
        assertThat(RetryAfter.nanos("Sat, 05 Dec 2026 11:59:00 GMT", NOW)).as("past").isEqualTo(-1);
    }

    @Test
    void anythingElsePausesNothing() {
        assertThat(RetryAfter.nanos(null, NOW)).isEqualTo(-1);
        assertThat(RetryAfter.nanos("", NOW)).isEqualTo(-1);
        assertThat(RetryAfter.nanos("soon", NOW)).isEqualTo(-1);
        assertThat(RetryAfter.nanos("1.5", NOW)).isEqualTo(-1);
        assertThat(RetryAfter.nanos("-3", NOW)).isEqualTo(-1);
        assertThat(RetryAfter.nanos("99999999999", NOW)).as("more digits than any sane pause").isEqualTo(-1);
    }
}
