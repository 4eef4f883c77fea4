package dev.limiter.agent.http;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.response.HeaderStyle;
import dev.limiter.rules.response.HeaderText;
import dev.limiter.rules.response.ResponseSpec;
import java.nio.charset.StandardCharsets;

/**
 * Puts the rules file's {@code response:} on any server's response: {@link ResponseSpec} formats the values
 * (status, {@code Retry-After} in whole seconds of at least 1, the rate-limit headers, the body and its type), the
 * server's {@link HttpServerApi} only sets them. Nothing is written once the response is committed (an outer
 * filter may have flushed it). Failures are logged (throttled) and swallowed: the application never sees them.
 */
public final class RejectionRenderer {

    private static final byte[] NO_BODY = new byte[0];

    private RejectionRenderer() {
    }

    /**
     * Writes the rejection by {@code rule} (its outcome {@code out}, its limit's header values {@code text}); returns
     * what the woven entry returns instead of running the handler, or {@link HttpServerApi#unwritableRejection}
     * if it cannot be written.
     */
    public static Object reject(HttpServerApi api, Object response, ResponseSpec spec, Rule rule, HeaderText text,
            long[] out, HttpExchange exchange, ThrottledLog log) {
        try {
            if (api.committed(response)) {
                return api.unwritableRejection();
            }
            api.status(response, spec.status());
            exchange.headers.write(api, response, spec, text, out, true, System.currentTimeMillis());
            String body = spec.body() == null ? null : spec.renderBody(rule.id(), Outcome.retryAfterSeconds(out));
            if (body == null || body.isEmpty()) {
                return api.writeRejection(response, NO_BODY, null);
            }
            return api.writeRejection(response, body.getBytes(StandardCharsets.UTF_8), spec.contentType());
        } catch (Throwable t) {
            log.warn(Warning.RENDERING, "limiter: could not write the rejection for rule " + rule.id(), t);
            return api.unwritableRejection();
        }
    }

    /** The rate-limit headers of an admitted request, set before the handler runs. */
    public static void headers(HttpServerApi api, Object response, ResponseSpec spec, HttpExchange exchange,
            ThrottledLog log) {
        if (spec.headerStyle() == HeaderStyle.NONE) {
            return;
        }
        Rule rule = exchange.bindingRule;
        try {
            if (!api.committed(response)) {
                // the limiter's own clock: it set the reset time in the outcome
                long now = rule.limiter().config().clock().millis();
                exchange.headers.write(api, response, spec, exchange.bindingText, exchange.binding, false, now);
            }
        } catch (Throwable t) {
            log.warn(Warning.RENDERING, "limiter: could not write rate-limit headers for rule " + rule.id(), t);
        }
    }
}
