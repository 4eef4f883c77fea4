package dev.limiter.it.app;

import dev.limiter.it.support.Gate;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The slow endpoints ({@code /slow}, {@code /reports/**}) that concurrency rules hold permits on.
 * {@code ms=N} sleeps N milliseconds; {@code gate=NAME} instead waits until the test opens that {@link Gate}
 * (deterministic on a loaded machine, unlike a sleep); {@code fail=true} then throws, to prove that permits come
 * back when the servlet ends by an exception. {@code workers=N} runs the sleep in one of N shared workers (a
 * fair queue before them): a service whose latency grows with the calls beyond its capacity, as an adaptive limit
 * must find it.
 */
public final class SlowServlet extends HttpServlet {

    private static final long GATE_TIMEOUT_MILLIS = 60_000;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String gate = request.getParameter("gate");
        if (gate != null) {
            if (!Gate.named(gate).pass(GATE_TIMEOUT_MILLIS)) {
                Responses.text(response, 504, "gate " + gate + " was never opened");
                return;
            }
        } else if (request.getParameter("workers") != null) {
            Workers.run(Integer.parseInt(request.getParameter("workers")),
                    Long.parseLong(param(request, "ms", "500")));
        } else {
            Pause.millis(Long.parseLong(param(request, "ms", "500")));
        }
        if (Boolean.parseBoolean(request.getParameter("fail"))) {
            throw new IllegalStateException("slow endpoint failed on purpose");
        }
        Responses.text(response, 200, "done");
    }

    private static String param(HttpServletRequest request, String name, String fallback) {
        String value = request.getParameter(name);
        return value == null ? fallback : value;
    }
}
