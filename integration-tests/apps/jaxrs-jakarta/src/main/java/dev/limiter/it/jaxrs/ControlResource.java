package dev.limiter.it.jaxrs;

import dev.limiter.it.support.Gate;
import dev.limiter.it.support.Threads;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Test-side controls under {@code /app/}: {@code gate?name=N} (how many calls arrived at that gate),
 * {@code release?name=N} (open it) and {@code runtime} (the Java feature version and the kind of thread serving
 * requests). Tests must keep rules off this class.
 */
@Path("/app")
@Produces(MediaType.TEXT_PLAIN)
public class ControlResource {

    @GET
    @Path("gate")
    public String arrived(@QueryParam("name") String name) {
        return Integer.toString(Gate.named(name).arrived());
    }

    @GET
    @Path("runtime")
    public String runtime() {
        return Threads.runtime();
    }

    @GET
    @Path("release")
    public String release(@QueryParam("name") String name) {
        Gate.named(name).open();
        return "released";
    }
}
