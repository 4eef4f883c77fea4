package dev.limiter.it.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Several resource methods on one class, so a rule naming one of them ({@code get}) can be shown to leave the
 * others ({@code list}, {@code create}) alone. {@code fail} always throws: the application's
 * {@link AppExceptionMapper} turns that into a 500, and a limiter rejection on the same method must still be a
 * 429. {@code search} takes its key from a query-parameter argument ({@code arg:0}), which works without a
 * servlet container too.
 */
@Path("/items")
@Produces(MediaType.TEXT_PLAIN)
public class ItemsResource {

    @GET
    public String list() {
        return "items";
    }

    @GET
    @Path("{id}")
    public String get(@PathParam("id") String id) {
        return "item " + id;
    }

    @POST
    public String create(String body) {
        return "created " + body;
    }

    @GET
    @Path("search")
    public String search(@QueryParam("q") String q) {
        return "found " + q;
    }

    @GET
    @Path("fail")
    public String fail() {
        throw new IllegalStateException("resource failed");
    }
}
