package jaxrstest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** A resource method that also carries an annotation of a library that may be missing at run time. */
@Path("/documented")
@MissingAtRuntime
public class DocumentedResource {

    @GET
    @MissingAtRuntime
    public String get() {
        return "documented";
    }
}
