package dev.limiter.agent.webflux;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.response.HeaderStyle;
import dev.limiter.rules.response.HeaderText;
import dev.limiter.rules.response.ResponseSpec;
import java.nio.charset.StandardCharsets;

/**
 * Puts the rules file's {@code response:} on a WebFlux response, exactly as the servlet adapter does on a servlet
 * response: the values come from {@link ResponseSpec} (status, {@code Retry-After}, rate-limit headers, body), this
 * class only sets them through {@link WebfluxApi}. Nothing here blocks: a rejection sets status and headers and
 * returns {@code response.writeWith(Mono.just(body))} for the woven method to return instead of calling the
 * handler, so the event loop writes it when the server subscribes.
 */
final class WebfluxResponses {

    private static final byte[] NO_BODY = new byte[0];

    /**
     * The rejection's {@code Mono<Void>}, or null if it cannot be written (the response is already committed, or
     * writing failed: logged, throttled); then the handler runs, as a servlet whose rejection failed does not.
     */
    Object reject(WebfluxApi api, Object response, ResponseSpec spec, Rule rule, HeaderText text, long[] out,
            WebfluxHeaders sink, ThrottledLog log) {
        try {
            if (api.committed(response)) {
                return null;
            }
            api.status(response, spec.status());
            Object headers = api.headers(response);
            sink.write(api, headers, spec, text, out, true, System.currentTimeMillis());
            String body = spec.body() == null ? null : spec.renderBody(rule.id(), Outcome.retryAfterSeconds(out));
            byte[] bytes = NO_BODY;
            if (body != null && !body.isEmpty()) {
                if (spec.contentType() != null) {
                    api.setHeader(headers, "Content-Type", spec.contentType());
                }
                bytes = body.getBytes(StandardCharsets.UTF_8);
            }
            api.setHeader(headers, "Content-Length", Integer.toString(bytes.length));
            return api.write(response, bytes);
        } catch (Throwable t) {
            log.warn("limiter: could not write the rejection for rule " + rule.id(), t);
            return null;
        }
    }

    /** The rate-limit headers of an admitted exchange, set before the handler runs (nothing is committed yet). */
    void headers(WebfluxApi api, Object response, ResponseSpec spec, Rule rule, HeaderText text, long[] out,
            WebfluxHeaders sink, ThrottledLog log) {
        if (spec.headerStyle() == HeaderStyle.NONE) {
            return;
        }
        try {
            if (!api.committed(response)) {
                // the limiter's own clock: it set the reset time in out
                long now = rule.limiter().config().clock().millis();
                sink.write(api, api.headers(response), spec, text, out, false, now);
            }
        } catch (Throwable t) {
            log.warn("limiter: could not write rate-limit headers for rule " + rule.id(), t);
        }
    }
}
