package jaxrstest;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;

/** A javax.ws.rs (JAX-RS 2) resource: matched for JAVAX only. */
@Path("/legacy")
public class JavaxResource {

    @GET
    @Path("{user}")
    public String get(@PathParam("user") String user) {
        return user;
    }

    public String plain() {
        return "plain";
    }
}
