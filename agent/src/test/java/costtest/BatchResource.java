package costtest;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.List;

/** A jakarta resource whose {@code jaxrs:} rule ({@code cost-jaxrs}) reads the cost from the entity, a list. */
@Path("/batch")
public class BatchResource {

    @POST
    @Path("{tenant}")
    public String submit(@PathParam("tenant") String tenant, List<String> items) {
        return "took " + items.size();
    }
}
