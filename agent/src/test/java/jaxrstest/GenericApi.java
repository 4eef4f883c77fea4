package jaxrstest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** A generic resource interface: implementations override with the type argument in place of T. */
public interface GenericApi<T> {

    @GET
    @Path("{key}")
    T find(@PathParam("key") String key);

    @POST
    void save(T value);
}
