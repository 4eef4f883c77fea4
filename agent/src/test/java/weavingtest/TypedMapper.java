package weavingtest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * A mapper for one exception type: javac adds a bridge {@code toResponse(Throwable)} that calls the typed method,
 * and only the typed method may carry the advice.
 */
public class TypedMapper implements ExceptionMapper<IllegalStateException> {

    @Override
    public Response toResponse(IllegalStateException exception) {
        if (exception.getMessage() == null) {
            return Response.status(500).build();
        }
        return Response.status(409).entity(exception.getMessage()).build();
    }
}
