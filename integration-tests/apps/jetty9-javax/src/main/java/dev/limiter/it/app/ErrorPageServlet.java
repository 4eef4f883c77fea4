package dev.limiter.it.app;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code /error}, the application's error page for 500s: a thrown exception comes back through the servlet
 * machinery as an ERROR dispatch of the same request, which the limiter must not count again.
 */
public final class ErrorPageServlet extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object status = request.getAttribute("javax.servlet.error.status_code");
        Responses.text(response, 500, "error page " + status);
    }
}
