package dev.limiter.it.app;

import dev.limiter.it.support.Gate;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code /async/**}: the request goes asynchronous, so the first pass through the filter chain returns long
 * before the request ends. The limiter must neither count the later ASYNC dispatch again nor release a
 * concurrency permit before the request really ends. {@code gate=NAME} or {@code ms=N} decide when the async
 * work finishes; {@code dispatch=true} then dispatches back to this servlet instead of completing directly.
 */
public final class AsyncServlet extends HttpServlet {

    private static final long TIMEOUT_MILLIS = 90_000;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            Responses.text(response, 200, "async dispatched");
            return;
        }
        AsyncContext async = request.startAsync();
        async.setTimeout(TIMEOUT_MILLIS);
        String gate = request.getParameter("gate");
        String ms = request.getParameter("ms");
        boolean dispatch = Boolean.parseBoolean(request.getParameter("dispatch"));
        async.start(() -> {
            if (gate != null) {
                Gate.named(gate).pass(TIMEOUT_MILLIS);
            } else {
                Pause.millis(ms == null ? 0 : Long.parseLong(ms));
            }
            if (dispatch) {
                async.dispatch();
            } else {
                try {
                    Responses.text((HttpServletResponse) async.getResponse(), 200, "async done");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    async.complete();
                }
            }
        });
    }
}
