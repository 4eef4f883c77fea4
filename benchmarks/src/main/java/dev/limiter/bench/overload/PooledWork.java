package dev.limiter.bench.overload;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * An endpoint whose cost grows with load: each call holds one of a fixed pool of "connections" (a database pool,
 * a downstream with a fixed number of slots) for a fixed time, and waits in a fair queue for one beyond the pool.
 * Its capacity is {@code pool / workMillis} calls per millisecond; past it, latency grows with the queue.
 */
final class PooledWork extends HttpServlet {

    private final Semaphore pool;
    private final long workNanos;

    PooledWork(int size, long workMillis) {
        this.pool = new Semaphore(size, true);
        this.workNanos = TimeUnit.MILLISECONDS.toNanos(workMillis);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        pool.acquireUninterruptibly();
        try {
            long end = System.nanoTime() + workNanos;
            for (long left = workNanos; left > 0; left = end - System.nanoTime()) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.release();
        }
        response.setContentType("text/plain");
        response.getWriter().write("done\n");
    }
}
