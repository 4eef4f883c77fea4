package dev.limiter.it.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Resource methods the servlet-container scenarios combine with HTTP rules: {@code get} is matched both by a
 * servlet-path rule and by a JAX-RS rule (each must count the request once), {@code list} by a JAX-RS rule whose
 * key comes from the HTTP request in flight (a header).
 */
@Path("/orders")
@Produces(MediaType.TEXT_PLAIN)
public class OrdersResource {

    @GET
    public String list() {
        return "orders";
    }

    @GET
    @Path("{id}")
    public String get(@PathParam("id") String id) {
        return "order " + id;
    }
}
