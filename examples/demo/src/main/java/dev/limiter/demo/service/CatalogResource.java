package dev.limiter.demo.service;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A Jersey (Jakarta REST) resource served through Jersey's {@code ServletContainer} at {@code /rest/*}.
 *
 * <p>The agent sees its requests at the servlet entry, so an HTTP rule on {@code /rest/catalog/{sku}} limits it
 * today, and is counted once even though Jersey's container is itself a servlet.
 */
@Path("catalog/{sku}")
public class CatalogResource {

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String item(@PathParam("sku") String sku) {
        return "{\"sku\":\"" + JsonText.clean(sku) + "\",\"in_stock\":true}";
    }
}
