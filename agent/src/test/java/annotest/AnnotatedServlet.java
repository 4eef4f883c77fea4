package annotest;

import dev.limiter.api.Limit;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;

/** A servlet with an annotated helper: it declares an entry point, and its constant pool has the descriptor. */
public class AnnotatedServlet extends HttpServlet {

    @Override
    public void service(ServletRequest request, ServletResponse response) {
        lookup(request.getParameter("q"));
    }

    @Limit(limit = 10, window = "1s")
    public String lookup(String query) {
        return "found " + query;
    }
}
