package dev.limiter.rules;

/**
 * What a rule does when the limiter itself fails (a bug, a custom strategy that throws, later an unreachable
 * Redis): fail open ({@link #ALLOW}, the default: a broken limiter must not take the service down) or fail
 * closed ({@link #REJECT}, for limits that protect something that must not be overrun).
 */
public enum OnError {
    ALLOW("allow"), REJECT("reject");

    private final String spelling;

    OnError(String spelling) {
        this.spelling = spelling;
    }

    /** How the choice is written in the rules file. */
    public String spelling() {
        return spelling;
    }

    /** The value for a file spelling, or null. */
    public static OnError bySpelling(String text) {
        for (OnError value : values()) {
            if (value.spelling.equals(text)) {
                return value;
            }
        }
        return null;
    }
}
