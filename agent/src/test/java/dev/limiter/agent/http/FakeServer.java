package dev.limiter.agent.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A server's getters and setters over a plain request/response object ({@link FakeServer.Exchange}), with the
 * capability flags of a real server: the seam's code (keys, client address, gate, rendering, release) runs exactly
 * as it does behind a real binding, without the framework.
 */
final class FakeServer extends HttpServerApi {

    /** A request and its response in one. */
    static final class Exchange {
        String method = "GET";
        String path = "/api/x";
        final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        final Map<String, String> parameters = new LinkedHashMap<>();
        Object peer = "10.0.0.1";
        String principal;
        Set<String> roles = Set.of();
        boolean refuseParameters;
        // the response
        int status = 200;
        final Map<String, String> responseHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        String body;
        String contentType;
        boolean committed;
        PermitRelease held;

        Exchange header(String name, String value) {
            headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            return this;
        }
    }

    FakeServer(String server, int capabilities) {
        super(server, capabilities, null);
    }

    private static Exchange x(Object request) {
        return (Exchange) request;
    }

    @Override
    public String method(Object request) {
        return x(request).method;
    }

    @Override
    public String path(Object request) {
        return lacks(NO_PATH) ? null : x(request).path;
    }

    @Override
    public String header(Object request, String name) {
        List<String> values = x(request).headers.get(name);
        return values == null ? null : values.get(0);
    }

    @Override
    public String headerLines(Object request, String name) {
        return HeaderLines.joined(x(request).headers.get(name));
    }

    @Override
    public String parameter(Object request, String name) {
        if (x(request).refuseParameters) {
            throw new IllegalStateException("more parameters than the server parses");
        }
        return x(request).parameters.get(name);
    }

    @Override
    public Object peer(Object request) {
        return x(request).peer;
    }

    @Override
    public String peerText(Object peer) {
        return String.valueOf(peer);
    }

    @Override
    public String principal(Object request) {
        return x(request).principal;
    }

    @Override
    public boolean isUserInRole(Object request, String role) {
        return x(request).roles.contains(role);
    }

    @Override
    public boolean committed(Object response) {
        return x(response).committed;
    }

    @Override
    public void status(Object response, int code) {
        x(response).status = code;
    }

    @Override
    public void setHeader(Object response, String name, String value) {
        x(response).responseHeaders.put(name, value);
    }

    @Override
    public Object writeRejection(Object response, byte[] body, String contentType) {
        x(response).body = new String(body, StandardCharsets.UTF_8);
        x(response).contentType = contentType;
        x(response).committed = true;
        return WRITTEN;
    }

    @Override
    public void holdUntilEnd(Object request, HttpExchange exchange) {
        x(request).held = new PermitRelease(exchange.permits, this);
    }

    @Override
    public String toString() {
        return server;
    }
}
