package jaxrstest;

import jakarta.ws.rs.GET;

/** HTTP-method annotations but no @Path anywhere in the hierarchy: not a resource class. */
public class NoPathResource {

    @GET
    public String get() {
        return "no path";
    }
}
