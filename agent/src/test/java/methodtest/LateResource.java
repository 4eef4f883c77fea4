package methodtest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** A resource class loaded before any rule names it; a reload then adds a jaxrs rule for it. */
@Path("/late")
public class LateResource {

    @GET
    @Path("{name}")
    public String get(@PathParam("name") String name) {
        return "late " + name;
    }
}
