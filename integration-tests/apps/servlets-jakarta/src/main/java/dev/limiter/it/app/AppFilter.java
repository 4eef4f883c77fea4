package dev.limiter.it.app;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The application's own filter, in front of every path. A rejected request must never reach it: the agent
 * checks at the outermost filter entry and skips the body. Tests prove that through {@link #count()} (served at
 * {@code /app/filter-count}) and the {@code X-App-Filter: ran} header. The control endpoints under {@code /app/}
 * are not counted, so reading the count does not change it.
 */
public final class AppFilter implements Filter {

    static final String HEADER = "X-App-Filter";
    private static final AtomicLong RUNS = new AtomicLong();

    static long count() {
        return RUNS.get();
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = ((HttpServletRequest) request).getRequestURI();
        if (!path.startsWith("/app/")) {
            RUNS.incrementAndGet();
        }
        ((HttpServletResponse) response).setHeader(HEADER, "ran");
        chain.doFilter(request, response);
    }
}
