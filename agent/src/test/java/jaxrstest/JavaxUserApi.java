package jaxrstest;

import javax.ws.rs.DELETE;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;

/** javax: annotations on an interface only. */
@Path("/users")
public interface JavaxUserApi {

    @DELETE
    @Path("{user}")
    void remove(@PathParam("user") String user);
}
