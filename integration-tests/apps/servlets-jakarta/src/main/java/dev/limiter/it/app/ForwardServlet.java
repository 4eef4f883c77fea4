package dev.limiter.it.app;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code /forward[?to=PATH]} forwards and {@code /include[?to=PATH]} includes (default target {@code /api/hello}).
 * Either is a second trip through the servlet machinery of the same request, and the limiter must count the
 * request once.
 */
public final class ForwardServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String target = request.getParameter("to");
        RequestDispatcher dispatcher = request.getRequestDispatcher(target == null ? "/api/hello" : target);
        if (request.getServletPath().equals("/include")) {
            dispatcher.include(request, response);
        } else {
            dispatcher.forward(request, response);
        }
    }
}
