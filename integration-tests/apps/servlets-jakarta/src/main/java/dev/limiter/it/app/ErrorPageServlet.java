package dev.limiter.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code /error}, the application's error page for 500s: a thrown exception comes back through the servlet
 * machinery as an ERROR dispatch of the same request, which the limiter must not count again.
 */
public final class ErrorPageServlet extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object status = request.getAttribute("jakarta.servlet.error.status_code");
        Responses.text(response, 500, "error page " + status);
    }
}
