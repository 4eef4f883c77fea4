package dev.limiter.it.app.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/** The tests' own endpoints (no rule names this class): counts and gates. */
@Path("/app")
public class AppResource {

    @GET
    @Path("/handled")
    public String handled() {
        return Long.toString(AppState.handled());
    }

    @GET
    @Path("/gate")
    public String arrivals(@QueryParam("name") String name) {
        return Long.toString(AppState.arrivals(name));
    }

    @GET
    @Path("/release")
    public String release(@QueryParam("name") String name) {
        AppState.release(name);
        return "released " + name;
    }
}
