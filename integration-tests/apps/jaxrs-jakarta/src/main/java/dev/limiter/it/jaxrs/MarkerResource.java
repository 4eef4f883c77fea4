package dev.limiter.it.jaxrs;

import dev.limiter.api.RateLimitExceededException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** Calls {@link Marker#hit()}: once a version's marker rule is live, its rejection names {@code rules-v<N>}. */
@Path("/marker")
public class MarkerResource {

    private static final Marker MARKER = new Marker();

    @GET
    public Response hit() {
        try {
            return Rejections.text(200, MARKER.hit());
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        }
    }
}
