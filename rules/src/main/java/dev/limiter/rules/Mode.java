package dev.limiter.rules;

/**
 * Whether a rule rejects or only counts. {@link #DRY_RUN} is the safe way to roll a rule out: it counts what it
 * would have rejected ({@link RuleStats#wouldReject}) and lets everything through. JMX can switch it live.
 */
public enum Mode {
    ENFORCE("enforce"), DRY_RUN("dry-run");

    private final String spelling;

    Mode(String spelling) {
        this.spelling = spelling;
    }

    /** How the mode is written in the rules file. */
    public String spelling() {
        return spelling;
    }

    /** The mode for a file spelling, or null. */
    public static Mode bySpelling(String text) {
        for (Mode mode : values()) {
            if (mode.spelling.equals(text)) {
                return mode;
            }
        }
        return null;
    }
}
