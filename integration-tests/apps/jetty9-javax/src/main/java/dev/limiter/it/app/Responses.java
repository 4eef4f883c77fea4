package dev.limiter.it.app;

import javax.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Writes the plain-text answers; never flushes, so the container commits after the filter chain returns. */
final class Responses {

    private Responses() {
    }

    static void text(HttpServletResponse response, int status, String body) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write(body);
    }
}
