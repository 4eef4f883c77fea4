package jaxrstest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** An abstract resource superclass carrying @Path and the annotations of an abstract method. */
@Path("/accounts")
public abstract class BaseResource {

    @PUT
    @Path("{account}")
    public abstract void update(@PathParam("account") String account, String body);

    @GET
    public String describe() {
        return "base";
    }
}
