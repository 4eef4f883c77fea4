package dev.limiter.api;

import java.io.IOException;

/**
 * Thrown by an outgoing HTTP call that an {@code http-client:} rule rejects, before anything is sent: by
 * {@code java.net.http.HttpClient.send}, and as the failure of the future {@code sendAsync} returns. An
 * {@link IOException}, which every caller of these clients handles already: a rejected call looks like a call
 * that could not reach the server, never like a half-sent request.
 *
 * <p>It lives on the bootstrap class path, so application code compiled against it, the woven client and the
 * agent all see the same class. Rejections are expected traffic: it carries no stack trace.
 */
public class OutboundRateLimitException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String ruleId;
    private final long retryAfterMillis;

    /**
     * @param ruleId           the id of the rule that rejected the call
     * @param retryAfterMillis milliseconds until a retry can succeed (values below 1 are reported as 1)
     */
    public OutboundRateLimitException(String ruleId, long retryAfterMillis) {
        super(null, null);
        this.ruleId = ruleId;
        this.retryAfterMillis = retryAfterMillis < 1 ? 1 : retryAfterMillis;
    }

    /** No stack trace: a flood of rejected calls stays cheap. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }

    /** The id of the rule that rejected the call. */
    public String ruleId() {
        return ruleId;
    }

    /** Milliseconds until a retry can succeed, at least 1. */
    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    /** Whole seconds until a retry can succeed (rounded up, at least 1). */
    public long retryAfterSeconds() {
        return (retryAfterMillis + 999) / 1000;
    }

    @Override
    public String getMessage() {
        return "outgoing call rate limited: rule " + ruleId + ", retry after " + retryAfterMillis + " ms";
    }
}
