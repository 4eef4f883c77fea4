package jaxrstest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** A generic resource superclass: subclasses override get with the type argument in place of E. */
@Path("/crud")
public abstract class CrudBase<E> {

    @GET
    @Path("{id}")
    public abstract E get(@PathParam("id") long id);
}
