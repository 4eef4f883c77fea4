package dev.limiter.it.jaxrs;

import dev.limiter.api.RateLimitExceededException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** Calls the {@code @Limit}-annotated classes and reports a rejection as {@link Rejections} does. */
@Path("/annotated")
public class AnnotatedResource {

    private static final AnnotatedMailer MAILER = new AnnotatedMailer();
    private static final AnnotatedReports REPORTS = new AnnotatedReports();
    private static final BadlyAnnotated BAD = new BadlyAnnotated();

    @GET
    @Path("send")
    public Response send(@QueryParam("to") String to) {
        try {
            return Rejections.text(200, MAILER.send(to));
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        }
    }

    @GET
    @Path("daily")
    public Response daily() {
        try {
            return Rejections.text(200, REPORTS.daily());
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        }
    }

    @GET
    @Path("bad")
    public Response bad() {
        try {
            return Rejections.text(200, BAD.send());
        } catch (RateLimitExceededException e) {
            return Rejections.of(e);
        }
    }
}
