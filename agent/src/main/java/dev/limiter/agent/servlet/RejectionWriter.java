package dev.limiter.agent.servlet;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.response.HeaderStyle;
import dev.limiter.rules.response.HeaderText;
import dev.limiter.rules.response.ResponseSpec;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes the rate-limit headers of an allowed request and the whole response of a rejected one, as the rules
 * file's {@code response:} section says ({@link ResponseSpec} formats the values; this class only puts them on
 * a servlet response).
 *
 * <p>A rejection gets {@code response.status} (429 by default), {@code Retry-After} in whole seconds (at least
 * 1), the rate-limit headers, and the rendered body with its content type. Nothing is written once the
 * response is committed (a filter further out may have flushed it); the servlet body is skipped anyway.
 * Failures while writing are logged (throttled) and swallowed: the application must not see them.
 */
final class RejectionWriter {

    void reject(ServletApi api, Object response, ResponseSpec spec, Rule rule, HeaderText text, long[] out,
            HeaderWriter sink, ThrottledLog log) {
        try {
            if (api.committed(response)) {
                return;
            }
            api.status(response, spec.status());
            sink.write(api, response, spec, text, out, true, System.currentTimeMillis());
            String body = spec.body() == null ? null : spec.renderBody(rule.id(), Outcome.retryAfterSeconds(out));
            if (body != null && !body.isEmpty()) {
                if (spec.contentType() != null) {
                    api.contentType(response, spec.contentType());
                }
                OutputStream stream = api.body(response);
                stream.write(body.getBytes(StandardCharsets.UTF_8));
                stream.flush();
            }
        } catch (Throwable t) {
            log.warn("limiter: could not write the rejection for rule " + rule.id(), t);
        }
    }

    void headers(ServletApi api, Object response, ResponseSpec spec, Rule rule, HeaderText text, long[] out,
            HeaderWriter sink, ThrottledLog log) {
        if (spec.headerStyle() == HeaderStyle.NONE) {
            return;
        }
        try {
            if (!api.committed(response)) {
                // the limiter's own clock: it set the reset time in out
                long now = rule.limiter().config().clock().millis();
                sink.write(api, response, spec, text, out, false, now);
            }
        } catch (Throwable t) {
            log.warn("limiter: could not write rate-limit headers for rule " + rule.id(), t);
        }
    }
}
