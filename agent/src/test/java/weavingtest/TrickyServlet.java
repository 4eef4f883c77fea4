package weavingtest;

import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;

/**
 * A servlet whose {@code service} has the shapes inserted advice must get right: a loop head at the very first
 * instruction (a stack map frame at offset 0), returns from inside {@code try/finally}, its own exception
 * handlers, a {@code synchronized} block, wide locals, and a throw. What ran is appended to the request's
 * {@code trace} attribute (a list the test supplies), so woven copies in other class loaders report too.
 */
public class TrickyServlet extends GenericServlet {

    @Override
    @SuppressWarnings("unchecked")
    public void service(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        while (true) {
            if (request.getAttribute("trace") != null) {
                break;
            }
        }
        List<String> trace = (List<String>) request.getAttribute("trace");
        String path = ((HttpServletRequest) request).getPathInfo();
        long started = System.nanoTime();
        double half = started / 2.0;
        if (path.equals("/early")) {
            trace.add("early");
            return;
        }
        try {
            if (path.equals("/finally")) {
                trace.add("try");
                return;
            }
            if (path.equals("/caught")) {
                try {
                    throw new IllegalStateException("own");
                } catch (IllegalStateException e) {
                    trace.add("caught " + e.getMessage());
                }
            }
            if (path.equals("/throw")) {
                throw new ServletException("boom");
            }
            synchronized (this) {
                trace.add("synchronized " + (half >= 0));
            }
        } finally {
            trace.add("finally");
        }
        trace.add("end of body");
    }
}
