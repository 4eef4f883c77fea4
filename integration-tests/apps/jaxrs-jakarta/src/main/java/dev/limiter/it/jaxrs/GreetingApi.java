package dev.limiter.it.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Carries the JAX-RS annotations that {@link GreetingResource} inherits: the implementing method has none of
 * its own (JAX-RS annotation inheritance), so the agent must look at the interface to know it is a resource
 * method.
 */
@Path("/greetings")
public interface GreetingApi {

    @GET
    @Path("{name}")
    @Produces(MediaType.TEXT_PLAIN)
    String greet(@PathParam("name") String name);
}
