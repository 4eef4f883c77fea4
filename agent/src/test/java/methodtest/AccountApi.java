package methodtest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** The JAX-RS annotations on an interface only, as many applications write them. */
@Path("/accounts")
public interface AccountApi {

    @GET
    @Path("{account}/balance")
    String balance(@PathParam("account") String account);
}
