package dev.limiter.it.app.quarkus;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/**
 * The resource methods the Quarkus tests put {@code jaxrs:} rules on, one per scenario, each counting its runs
 * in {@link AppState} (a rejected call must not run it). Blocking by default (a worker thread), except
 * {@link #fast()}, which runs on the Vert.x event loop.
 */
@Path("/api")
public class LimitedResource {

    @GET
    @Path("/exact")
    public String exact() {
        return AppState.handled("exact");
    }

    @GET
    @Path("/counted")
    public String counted() {
        return AppState.handled("counted");
    }

    @GET
    @Path("/dry")
    public String dry() {
        return AppState.handled("dry");
    }

    @GET
    @Path("/by-ip")
    public String byIp() {
        return AppState.handled("by-ip");
    }

    @GET
    @Path("/by-header")
    public String byHeader() {
        return AppState.handled("by-header");
    }

    @GET
    @Path("/by-param")
    public String byParam(@QueryParam("user") String user) {
        return AppState.handled("by-param " + user);
    }

    @GET
    @Path("/principal")
    public String principal() {
        return AppState.handled("principal");
    }

    @GET
    @Path("/reload")
    public String reload() {
        return AppState.handled("reload");
    }

    /** Named by the marker rule of each rules version the tests write. */
    @GET
    @Path("/marker")
    public String marker() {
        return AppState.handled("marker");
    }

    /** Under an {@code http:} rule (global key) in the {@code http:} rule tests. */
    @GET
    @Path("/hello")
    public String hello() {
        return AppState.handled("hello");
    }

    /** Under an {@code http:} rule and a {@code jaxrs:} rule at once in the {@code http:} rule tests. */
    @GET
    @Path("/both")
    public String both() {
        return AppState.handled("both");
    }

    /** On the event loop: the decision and the rejection must not need a worker. */
    @GET
    @Path("/fast")
    @NonBlocking
    public String fast() {
        return AppState.handled("fast on " + Thread.currentThread().getName());
    }

    /** Blocks its worker until the test opens {@code gate} ({@code /app/release}). */
    /** No {@code @PathParam}: Quarkus REST binds {@code name} by its name in the template. */
    @GET
    @Path("/greet/{name}")
    public String greet(String name) {
        return AppState.handled("greet " + name);
    }

    @GET
    @Path("/hold")
    public String hold(@QueryParam("gate") String gate) throws InterruptedException {
        AppState.arrived(gate);
        AppState.await(gate);
        return AppState.handled("held " + gate);
    }
}
