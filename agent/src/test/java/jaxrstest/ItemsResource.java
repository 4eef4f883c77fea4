package jaxrstest;

import jakarta.ws.rs.GET;

/** Returned by a sub-resource locator; it has no @Path anywhere, so it is not taken for a resource class. */
public class ItemsResource {

    @GET
    public String all() {
        return "items";
    }
}
