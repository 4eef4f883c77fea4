package jaxrstest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.concurrent.atomic.AtomicInteger;

/** The application mapper that would turn every exception, a 429 included, into a 500. */
public class CatchAllMapper implements ExceptionMapper<Throwable> {

    public final AtomicInteger calls = new AtomicInteger();

    @Override
    public Response toResponse(Throwable exception) {
        calls.incrementAndGet();
        return Response.status(500).entity("mapped " + exception.getClass().getSimpleName()).build();
    }
}
