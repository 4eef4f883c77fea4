package dev.limiter.it.jaxrs;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * The kind of catch-all mapper many applications have: every exception becomes a 500 with body
 * {@code mapped by app}. A limiter rejection must get through it as a 429; if this body shows up where a 429 is
 * expected, the mapper swallowed the rejection.
 */
@Provider
public class AppExceptionMapper implements ExceptionMapper<Throwable> {

    static final String BODY = "mapped by app";

    @Override
    public Response toResponse(Throwable exception) {
        return Response.status(500).type(MediaType.TEXT_PLAIN).entity(BODY).build();
    }
}
