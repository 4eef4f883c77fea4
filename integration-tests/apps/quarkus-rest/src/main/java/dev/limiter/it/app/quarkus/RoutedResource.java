package dev.limiter.it.app.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

/**
 * The paths the {@code http:} rule tests put rules on (no {@code jaxrs:} rule names this class), in the shape of the
 * servlet and WebFlux scenario apps: {@code /hold/{name}} blocks its worker at a gate, {@code /fail/{name}}
 * throws ({@link ItemsResource} and {@link UsersResource} serve the rest: JAX-RS picks a root resource by its
 * longest literal path, so each {@code /api/...} prefix is its own class). Each counts its runs in
 * {@link AppState} (a rejected request must not run it).
 */
@Path("/")
public class RoutedResource {

    /** Blocks its worker until the test opens {@code gate} ({@code /app/release}). */
    @GET
    @Path("hold/{name}")
    public String hold(@PathParam("name") String name, @QueryParam("gate") String gate) throws InterruptedException {
        AppState.arrived(gate);
        AppState.await(gate);
        return AppState.handled("held " + gate);
    }

    @GET
    @Path("fail/{name}")
    public String fail(@PathParam("name") String name) {
        AppState.handled("failing " + name);
        throw new IllegalStateException("failing on purpose: " + name);
    }
}
