package dev.limiter.it.app.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** {@code /api/items/{name}}: every scenario path of the {@code http:} rule tests, answered with its name. */
@Path("/api/items")
public class ItemsResource {

    @GET
    @Path("/{name}")
    public String item(@PathParam("name") String name) {
        return AppState.handled("item " + name);
    }
}
