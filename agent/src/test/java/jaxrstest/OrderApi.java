package jaxrstest;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** @Path and the HTTP-method annotations only on the interface (a common Jersey / RESTEasy / MicroProfile style). */
@Path("/orders")
public interface OrderApi {

    @GET
    @Path("{orderId}")
    String get(@PathParam("orderId") String orderId);

    @DELETE
    @Path("{orderId}")
    void cancel(@PathParam("orderId") long orderId);
}
