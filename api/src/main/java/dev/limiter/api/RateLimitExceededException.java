package dev.limiter.api;

/**
 * Thrown by a rate-limited plain method (and usable by JAX-RS code) when a rule rejects the call.
 *
 * <p>It lives on the bootstrap class path, so application code compiled against it, the woven code and the
 * agent all see the same class whatever loader the application uses. The constructor is public so users'
 * tests can create one to exercise their own handling.
 *
 * <p>Rejections are expected traffic, not bugs: the exception carries no stack trace, which keeps a flood of
 * rejected calls as cheap as possible.
 */
public class RateLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String ruleId;
    private final long retryAfterMillis;

    /**
     * @param ruleId           the id of the rule that rejected the call
     * @param retryAfterMillis milliseconds until a retry can succeed (values below 1 are reported as 1)
     */
    public RateLimitExceededException(String ruleId, long retryAfterMillis) {
        super(null, null, false, false);
        this.ruleId = ruleId;
        this.retryAfterMillis = retryAfterMillis < 1 ? 1 : retryAfterMillis;
    }

    /** The id of the rule that rejected the call. */
    public String ruleId() {
        return ruleId;
    }

    /** Milliseconds until a retry can succeed, at least 1. */
    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    /** Whole seconds until a retry can succeed (rounded up, at least 1), as in a {@code Retry-After} header. */
    public long retryAfterSeconds() {
        return (retryAfterMillis + 999) / 1000;
    }

    @Override
    public String getMessage() {
        return "rate limit exceeded: rule " + ruleId + ", retry after " + retryAfterSeconds() + "s";
    }
}
