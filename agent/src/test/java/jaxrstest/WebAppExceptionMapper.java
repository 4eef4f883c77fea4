package jaxrstest;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.concurrent.atomic.AtomicInteger;

/** A typed mapper: javac adds the bridge toResponse(Throwable) that runtimes call through the interface. */
public class WebAppExceptionMapper implements ExceptionMapper<WebApplicationException> {

    public final AtomicInteger calls = new AtomicInteger();

    @Override
    public Response toResponse(WebApplicationException exception) {
        calls.incrementAndGet();
        return Response.serverError().entity("mapped").build();
    }
}
