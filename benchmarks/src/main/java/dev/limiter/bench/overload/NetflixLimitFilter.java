package dev.limiter.bench.overload;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/**
 * Netflix concurrency-limits' servlet filter ({@code ConcurrencyLimitServletFilter} of its
 * {@code concurrency-limits-servlet-jakarta} module) as that module writes it, over its core library with the
 * builder's defaults (a {@code VegasLimit}, no partitions): acquire, run the chain, report success or ignore on an
 * exception; no permit, 429. The servlet module itself is rebuilt here because only the core jar resolves from
 * the registry this project builds against; its filter is these few lines.
 */
final class NetflixLimitFilter implements Filter {

    private final Limiter<Void> limiter = SimpleLimiter.newBuilder().build();

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Optional<Limiter.Listener> listener = limiter.acquire(null);
        if (listener.isEmpty()) {
            HttpServletResponse http = (HttpServletResponse) response;
            http.setStatus(429);
            http.getWriter().print("Concurrency limit exceeded");
            return;
        }
        try {
            chain.doFilter(request, response);
            listener.get().onSuccess();
        } catch (IOException | ServletException | RuntimeException e) {
            listener.get().onIgnore();
            throw e;
        }
    }
}
