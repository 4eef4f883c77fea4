package dev.limiter.demo.service;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A Jersey (Jakarta REST) resource served through Jersey's {@code ServletContainer} at {@code /rest/*}.
 *
 * <p>The {@code catalog-per-item} rule names this class and {@link #item} ({@code match: jaxrs:}): the agent weaves
 * the resource method itself and keys on its {@code @PathParam("sku")} argument; a rejection is a
 * {@code WebApplicationException} carrying the 429, which Jersey renders.
 */
@Path("catalog/{sku}")
public class CatalogResource {

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String item(@PathParam("sku") String sku) {
        return "{\"sku\":\"" + JsonText.clean(sku) + "\",\"in_stock\":true}";
    }
}
