package weavingtest;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.atomic.AtomicInteger;

/** A jakarta servlet woven by the tests; counts how often its body runs. */
public class JakartaHello extends HttpServlet {

    private static final long serialVersionUID = 1L;

    public final AtomicInteger bodies = new AtomicInteger();
    public volatile Object requestSeenByBody;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
        bodies.incrementAndGet();
        requestSeenByBody = dev.limiter.bootstrap.LimiterBridge.currentRequest();
        resp.setStatus(200);
    }
}
