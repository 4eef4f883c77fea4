package dev.limiter.it.app;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code /forward[?to=PATH]} forwards (default to {@code /api/hello}). A forward is a second trip through the
 * servlet machinery of the same request, and the limiter must count the request once.
 */
public final class ForwardServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String target = request.getParameter("to");
        request.getRequestDispatcher(target == null ? "/api/hello" : target).forward(request, response);
    }
}
