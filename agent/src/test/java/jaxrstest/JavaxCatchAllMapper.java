package jaxrstest;

import javax.ws.rs.core.Response;
import javax.ws.rs.ext.ExceptionMapper;

/** javax twin of {@link CatchAllMapper}; the tests load it next to a real JAX-RS 2 runtime (Jersey 2). */
public class JavaxCatchAllMapper implements ExceptionMapper<Throwable> {

    public int calls;

    @Override
    public Response toResponse(Throwable exception) {
        calls++;
        return Response.status(500).entity("mapped " + exception.getClass().getSimpleName()).build();
    }
}
