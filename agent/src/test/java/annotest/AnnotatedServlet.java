package annotest;

import dev.limiter.api.Limit;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** A servlet with an annotated helper: its constant pool has an entry-point name and the descriptor. */
public class AnnotatedServlet extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) {
        lookup(request.getParameter("q"));
    }

    @Limit(limit = 10, window = "1s")
    public String lookup(String query) {
        return "found " + query;
    }
}
