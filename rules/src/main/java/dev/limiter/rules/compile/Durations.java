package dev.limiter.rules.compile;

/**
 * Parses the file's durations: a whole number and a unit, {@code 250ms}, {@code 1s}, {@code 1m}, {@code 1h},
 * {@code 1d}. No fractions and no bare numbers: "is 1000 seconds or millis?" should never be a question.
 */
final class Durations {

    private Durations() {
    }

    /** The duration in milliseconds, or -1 if the text is not a duration. */
    static long millis(String text) {
        int unitStart = 0;
        while (unitStart < text.length() && text.charAt(unitStart) >= '0' && text.charAt(unitStart) <= '9') {
            unitStart++;
        }
        if (unitStart == 0 || unitStart > 12) {
            return -1;
        }
        long amount = Long.parseLong(text.substring(0, unitStart));
        long unit;
        switch (text.substring(unitStart)) {
            case "ms":
                unit = 1;
                break;
            case "s":
                unit = 1_000;
                break;
            case "m":
                unit = 60_000;
                break;
            case "h":
                unit = 3_600_000;
                break;
            case "d":
                unit = 86_400_000;
                break;
            default:
                return -1;
        }
        return amount * unit;
    }
}
