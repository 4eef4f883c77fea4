package dev.limiter.it.app.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** {@code /api/users/{user}}: the path-parameter key of the {@code http:} rule tests. */
@Path("/api/users")
public class UsersResource {

    @GET
    @Path("/{user}")
    public String user(@PathParam("user") String user) {
        return AppState.handled("user " + user);
    }
}
