package dev.limiter.agent.quarkus;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.response.HeaderStyle;
import dev.limiter.rules.response.HeaderText;
import dev.limiter.rules.response.ResponseSpec;

/**
 * Puts the rules file's {@code response:} on a Vert.x response, exactly as the servlet and WebFlux adapters do:
 * the values come from {@link ResponseSpec} (status, {@code Retry-After}, rate-limit headers, body), this class
 * only sets them through {@link RoutingApi}. Nothing here blocks: {@code end} queues the write on the event loop.
 */
final class RoutingResponses {

    /**
     * Writes and ends the rejection; false if it cannot be written (the head is already out, or writing failed:
     * logged, throttled), then the request is routed, as a servlet whose rejection failed is not stopped either.
     */
    boolean reject(RoutingApi api, Object response, ResponseSpec spec, Rule rule, HeaderText text, long[] out,
            RoutingHeaders sink, ThrottledLog log) {
        try {
            if (api.headWritten(response)) {
                return false;
            }
            api.status(response, spec.status());
            sink.write(api, response, spec, text, out, true, System.currentTimeMillis());
            String body = spec.body() == null ? null : spec.renderBody(rule.id(), Outcome.retryAfterSeconds(out));
            if (body == null || body.isEmpty()) {
                api.putHeader(response, "Content-Length", "0");
                api.end(response);
                return true;
            }
            if (spec.contentType() != null) {
                api.putHeader(response, "Content-Type", spec.contentType());
            }
            api.end(response, body);
            return true;
        } catch (Throwable t) {
            log.warn("limiter: could not write the rejection for rule " + rule.id(), t);
            return false;
        }
    }

    /** The rate-limit headers of an admitted request, set before it is routed (nothing is written yet). */
    void headers(RoutingApi api, Object response, ResponseSpec spec, Rule rule, HeaderText text, long[] out,
            RoutingHeaders sink, ThrottledLog log) {
        if (spec.headerStyle() == HeaderStyle.NONE) {
            return;
        }
        try {
            if (!api.headWritten(response)) {
                // the limiter's own clock: it set the reset time in out
                long now = rule.limiter().config().clock().millis();
                sink.write(api, response, spec, text, out, false, now);
            }
        } catch (Throwable t) {
            log.warn("limiter: could not write rate-limit headers for rule " + rule.id(), t);
        }
    }
}
