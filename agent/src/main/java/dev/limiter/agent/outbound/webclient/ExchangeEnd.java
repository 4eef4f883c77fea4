package dev.limiter.agent.outbound.webclient;

import dev.limiter.agent.outbound.OutboundCallEnd;
import java.util.function.Consumer;

/**
 * Tells an admitted exchange's {@link OutboundCallEnd} how it ended: its response (a {@code 429} or {@code 503}
 * with {@code Retry-After} pauses the key), or the end of the subscription without one (an error, a cancel). The
 * end runs its work once.
 */
final class ExchangeEnd implements Consumer<Object> {

    private final OutboundCallEnd end;
    private final boolean response;

    private ExchangeEnd(OutboundCallEnd end, boolean response) {
        this.end = end;
        this.response = response;
    }

    /** {@code exchange} telling {@code end} (nothing to tell if null). */
    static Object around(WebClientApi api, Object exchange, OutboundCallEnd end) throws Throwable {
        if (end == null) {
            return exchange;
        }
        return api.doFinally(api.doOnNext(exchange, new ExchangeEnd(end, true)), new ExchangeEnd(end, false));
    }

    /** The response ({@code doOnNext}), or the signal the subscription ended with ({@code doFinally}). */
    @Override
    public void accept(Object value) {
        end.accept(response ? value : null, null);
    }
}
