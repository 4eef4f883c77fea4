package dev.limiter.it.jaxrs;

import dev.limiter.api.RateLimitExceededException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** Calls {@link Notifier}: 200 with its result, or 503 {@link Rejections} once a reloaded rule limits it. */
@Path("/notify")
public class NotifyResource {

    private static final Notifier NOTIFIER = new Notifier();

    @GET
    public Response ping(@QueryParam("to") String to) {
        try {
            return Rejections.text(200, NOTIFIER.ping(to));
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        }
    }
}
