package jaxrstest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;

/** Annotations on the resource class itself, plus the public methods that are not resource methods. */
@Path("/direct")
public class DirectResource {

    @GET
    public String list() {
        return "list";
    }

    @POST
    @Path("{id}")
    public String create(@QueryParam("dry") String dry, @PathParam("id") String id) {
        return "created " + id;
    }

    @Purge
    public void purge() {
    }

    /** A sub-resource locator: @Path without an HTTP method. */
    @Path("items")
    public ItemsResource items() {
        return new ItemsResource();
    }

    @GET
    @Path("static")
    public static String notAResourceMethod() {
        return "static";
    }

    @GET
    String packagePrivate() {
        return "hidden";
    }

    @Produces("text/plain")
    public String helper() {
        return "helper";
    }

    public String plain() {
        return "plain";
    }
}
