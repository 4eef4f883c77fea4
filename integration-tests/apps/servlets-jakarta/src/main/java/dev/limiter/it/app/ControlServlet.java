package dev.limiter.it.app;

import dev.limiter.it.support.Gate;
import dev.limiter.it.support.Threads;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Test-side controls under {@code /app/}: {@code filter-count} (how often {@link AppFilter} ran),
 * {@code gate?name=N} (how many requests arrived at that gate), {@code release?name=N} (open it) and
 * {@code runtime} ({@code java=<feature> thread=<virtual|platform>}: the JVM and the kind of thread the server
 * runs requests on, see {@link Threads}). Tests must keep rules off {@code /app/**}.
 */
public final class ControlServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String info = request.getPathInfo() == null ? "" : request.getPathInfo();
        switch (info) {
            case "/filter-count" -> Responses.text(response, 200, Long.toString(AppFilter.count()));
            case "/gate" -> Responses.text(response, 200,
                    Integer.toString(Gate.named(request.getParameter("name")).arrived()));
            case "/release" -> {
                Gate.named(request.getParameter("name")).open();
                Responses.text(response, 200, "released");
            }
            case "/runtime" -> Responses.text(response, 200, Threads.runtime());
            default -> Responses.text(response, 404, "no such control: " + info);
        }
    }
}
