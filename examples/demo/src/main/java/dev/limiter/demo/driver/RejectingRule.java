package dev.limiter.demo.driver;

/**
 * Which rule rejected a request, read from the 429 the agent wrote: the {@code RateLimit} header names the rule
 * ({@code "orders-per-client";r=0;t=1}), and the default JSON body does too ({@code "rule":"..."}).
 */
final class RejectingRule {

    private static final String BODY_FIELD = "\"rule\":\"";

    private RejectingRule() {
    }

    /** The rule id, or null when neither the header nor the body names one. */
    static String of(String rateLimitHeader, String body) {
        if (rateLimitHeader != null && rateLimitHeader.startsWith("\"")) {
            int end = rateLimitHeader.indexOf('"', 1);
            if (end > 1) {
                return rateLimitHeader.substring(1, end);
            }
        }
        if (body != null) {
            int start = body.indexOf(BODY_FIELD);
            if (start >= 0) {
                start += BODY_FIELD.length();
                int end = body.indexOf('"', start);
                if (end > start) {
                    return body.substring(start, end);
                }
            }
        }
        return null;
    }
}
