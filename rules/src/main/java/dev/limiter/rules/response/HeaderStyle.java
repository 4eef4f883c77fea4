package dev.limiter.rules.response;

/**
 * Which rate-limit headers HTTP responses carry.
 *
 * <p>{@link #DRAFT}: the IETF httpapi draft's {@code RateLimit-Policy} and {@code RateLimit} fields (structured
 * fields naming the policy); {@link #LEGACY}: the de-facto {@code X-RateLimit-Limit / -Remaining / -Reset};
 * {@link #BOTH} for clients in transition; {@link #NONE} to reveal nothing. {@code Retry-After} is sent on every
 * rejection whatever the style.
 */
public enum HeaderStyle {
    DRAFT("draft"), LEGACY("legacy"), BOTH("both"), NONE("none");

    private final String spelling;

    HeaderStyle(String spelling) {
        this.spelling = spelling;
    }

    /** How the style is written in the rules file. */
    public String spelling() {
        return spelling;
    }

    /** True if the IETF draft fields are sent. */
    public boolean draft() {
        return this == DRAFT || this == BOTH;
    }

    /** True if the {@code X-RateLimit-*} fields are sent. */
    public boolean legacy() {
        return this == LEGACY || this == BOTH;
    }

    /** The style for a file spelling, or null. */
    public static HeaderStyle bySpelling(String text) {
        for (HeaderStyle style : values()) {
            if (style.spelling.equals(text)) {
                return style;
            }
        }
        return null;
    }
}
