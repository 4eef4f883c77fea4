package dev.limiter.it.jaxrs;

import dev.limiter.api.RateLimitExceededException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * How the resources answer when a plain method they call was rejected: a 503 whose body says what was caught,
 * so a test can tell the limiter's exception (rule id, retry-after) from the one a {@code throw:} rule names.
 */
final class Rejections {

    static final int STATUS = 503;

    private Rejections() {
    }

    static Response of(RateLimitExceededException e) {
        return text(STATUS, "rejected by " + e.ruleId() + " class=" + e.getClass().getSimpleName()
                + " retryAfterMs=" + e.retryAfterMillis());
    }

    static Response of(MailQuotaException e) {
        return text(STATUS, "rejected class=" + e.getClass().getSimpleName() + " message=" + e.getMessage());
    }

    static Response text(int status, String body) {
        return Response.status(status).type(MediaType.TEXT_PLAIN).entity(body).build();
    }
}
