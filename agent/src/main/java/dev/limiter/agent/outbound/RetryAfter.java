package dev.limiter.agent.outbound;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Reads a {@code Retry-After} header value (RFC 9110): a number of seconds ({@code 120}) or an HTTP date
 * ({@code Wed, 21 Oct 2026 07:28:00 GMT}). Runs only on answers that pause a key (429, 503).
 */
final class RetryAfter {

    private RetryAfter() {
    }

    /** Nanoseconds from {@code nowMillis} (epoch) until the time {@code value} names; -1 if unreadable or past. */
    static long nanos(String value, long nowMillis) {
        if (value == null) {
            return -1;
        }
        String text = value.trim();
        if (text.isEmpty()) {
            return -1;
        }
        if (Character.isDigit(text.charAt(0))) {
            if (text.length() > 10 || !text.chars().allMatch(Character::isDigit)) {
                return -1;
            }
            long seconds = Long.parseLong(text);
            return seconds == 0 ? -1 : seconds * 1_000_000_000L;
        }
        try {
            long at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            return at > nowMillis ? (at - nowMillis) * 1_000_000L : -1;
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
