package dev.limiter.it.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A resource no rule names when the server starts: tests call it first (the runtime loads and instantiates it),
 * then a live reload adds a {@code jaxrs:} rule keyed on its {@code @PathParam} (the agent must re-weave the loaded
 * class), then another reload removes the rule.
 */
@Path("/stock")
@Produces(MediaType.TEXT_PLAIN)
public class StockResource {

    @GET
    @Path("{sku}")
    public String get(@PathParam("sku") String sku) {
        return "stock " + sku;
    }
}
