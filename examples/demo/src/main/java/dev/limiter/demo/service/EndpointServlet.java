package dev.limiter.demo.service;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Serves one {@link Endpoint} for GET and POST: a plain servlet, exactly what the agent weaves. */
final class EndpointServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient Endpoint endpoint;

    EndpointServlet(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String body;
        try {
            body = endpoint.body(request);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            return;
        }
        response.setContentType("application/json");
        response.getWriter().write(body);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        doGet(request, response);
    }
}
