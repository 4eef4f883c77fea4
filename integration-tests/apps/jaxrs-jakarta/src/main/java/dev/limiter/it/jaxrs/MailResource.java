package dev.limiter.it.jaxrs;

import dev.limiter.api.RateLimitExceededException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * Calls {@link Mailer} and reports what came out of it: 200 with its result, 503 {@link Rejections} when the
 * limiter (or a {@code throw:} exception) rejected the call, 502 when the mailer itself failed.
 */
@Path("/mail")
public class MailResource {

    private static final Mailer MAILER = new Mailer();

    @GET
    public Response send(@QueryParam("to") String to) {
        try {
            return Rejections.text(200, MAILER.send(to));
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        }
    }

    @GET
    @Path("urgent")
    public Response sendUrgent(@QueryParam("to") String to) {
        try {
            return Rejections.text(200, MAILER.sendUrgent(to));
        } catch (MailQuotaException e) {
            return Rejections.of(e);
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        }
    }

    @GET
    @Path("slow")
    public Response sendSlow(@QueryParam("gate") @DefaultValue("") String gate,
            @QueryParam("fail") @DefaultValue("false") boolean fail) {
        try {
            MAILER.sendSlow(gate, fail);
            return Rejections.text(200, "sent slowly");
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        } catch (IllegalStateException e) {
            return Rejections.text(502, "send failed: " + e.getMessage());
        }
    }
}
