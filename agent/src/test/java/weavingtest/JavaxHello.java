package weavingtest;

import java.util.concurrent.atomic.AtomicInteger;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** A javax servlet woven by the tests; counts how often its body runs and can be told to throw. */
public class JavaxHello extends HttpServlet {

    private static final long serialVersionUID = 1L;

    public final AtomicInteger bodies = new AtomicInteger();
    public volatile boolean fail;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
        bodies.incrementAndGet();
        if (fail) {
            throw new IllegalStateException("application failure");
        }
    }
}
