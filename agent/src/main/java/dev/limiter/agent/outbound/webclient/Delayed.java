package dev.limiter.agent.outbound.webclient;

import dev.limiter.agent.decision.Reservations;
import dev.limiter.agent.outbound.OutboundCallEnd;
import java.util.function.Consumer;

/**
 * An exchange made to wait for its reserved permit: subscribed when its time comes, on Reactor's timer (no thread
 * waits). Cancelled before then, the reserved permits go back and the exchange is never sent; once subscribed, the
 * reservation is spent.
 */
final class Delayed implements Runnable, Consumer<Object> {

    private final Reservations reserved;
    private final OutboundCallEnd end;

    private Delayed(Reservations reserved, OutboundCallEnd end) {
        this.reserved = reserved;
        this.end = end;
    }

    /** {@code exchange}, subscribed {@code nanos} from now. */
    static Object later(WebClientApi api, Object exchange, long nanos, Reservations reserved, OutboundCallEnd end)
            throws Throwable {
        Delayed delayed = new Delayed(reserved, end);
        return api.doOnCancel(api.delaySubscription(api.doOnSubscribe(exchange, delayed), nanos), delayed);
    }

    /** The exchange is subscribed: the request goes out on its reservation. */
    @Override
    public void accept(Object subscription) {
        reserved.sent();
    }

    /** Cancelled: a reservation not yet spent goes back. */
    @Override
    public void run() {
        reserved.refund();
        if (end != null) {
            end.accept(null, null);
        }
    }
}
