package dev.limiter.agent.startup;

/**
 * A time as ISO-8601 UTC text with milliseconds ({@code 2026-12-06T00:41:07.123Z}) by arithmetic alone, without
 * loading {@code java.time} (its classes and zone rules cost a JVM that has not loaded them tens of ms of CPU).
 */
final class IsoTime {

    private IsoTime() {
    }

    /** {@code epochMillis} in UTC; days from the civil calendar's algorithm (H. Hinnant's {@code civil_from_days}). */
    static String utc(long epochMillis) {
        long days = Math.floorDiv(epochMillis, 86_400_000L);
        long millisOfDay = Math.floorMod(epochMillis, 86_400_000L);
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        long month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        StringBuilder text = new StringBuilder(24);
        text.append(year).append('-');
        two(text, month).append('-');
        two(text, day).append('T');
        two(text, millisOfDay / 3_600_000).append(':');
        two(text, millisOfDay / 60_000 % 60).append(':');
        two(text, millisOfDay / 1000 % 60).append('.');
        long millis = millisOfDay % 1000;
        return text.append(millis < 100 ? (millis < 10 ? "00" : "0") : "").append(millis).append('Z').toString();
    }

    private static StringBuilder two(StringBuilder text, long value) {
        return text.append(value < 10 ? "0" : "").append(value);
    }
}
