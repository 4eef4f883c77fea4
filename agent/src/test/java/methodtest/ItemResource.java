package methodtest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** A jakarta resource class with its annotations on the class itself. */
@Path("/items")
public class ItemResource {

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
    @Path("by-owner/{owner}")
    public String byOwner(@PathParam("owner") String owner) {
        return "owned by " + owner;
    }

    /** Public, but not a resource method: never woven even though the rule's method glob is {@code *}. */
    public String helper(String x) {
        return "helper " + x;
    }
}
