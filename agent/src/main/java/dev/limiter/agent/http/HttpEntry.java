package dev.limiter.agent.http;

import dev.limiter.rules.RuleSet;

/**
 * The outer path of an HTTP server's entry that decides on one thread's reused {@link HttpExchange} (an event
 * loop's): without an {@code http:} rule in force the request is not touched at all (its binding is not even looked
 * up); a request its binding leaves alone, or that the gate cannot serve, runs unlimited; any other goes to the
 * server's own step ({@link #decide}), which hands it to the {@link HttpGate}. A server's entry is a subclass, the
 * delegate of its bootstrap bridge; it supplies only its binding, its exchange and its step.
 *
 * @param <A> the server's binding
 * @param <X> the per-thread buffers it decides in
 */
public abstract class HttpEntry<A extends HttpServerApi, X extends HttpExchange> {

    protected final HttpGate gate;

    /** Per thread (an anonymous class, not a lambda: nothing to spin on the first request). */
    private final ThreadLocal<X> exchanges = new ThreadLocal<>() {
        @Override
        protected X initialValue() {
            return newExchange();
        }
    };

    protected HttpEntry(HttpGate gate) {
        this.gate = gate;
    }

    /**
     * Null to run the handler, else what the woven entry returns instead (a written rejection, its publisher).
     * Public: a reactive server's entry answers its bridge's {@code onExchangeStart} with it.
     */
    public final Object onExchangeStart(Object request, Object response) {
        return enter(request, response);
    }

    /** {@link #onExchangeStart}, for an entry whose bridge asks another question. */
    protected final Object enter(Object request, Object response) {
        RuleSet rules = gate.httpRules();
        if (rules == null) {
            return null;
        }
        A api = binding(request);
        if (api == null || !gate.supports(api)) {
            return null;
        }
        return decide(rules, api, request, response, exchanges.get());
    }

    /** The binding of {@code request}'s class, as its loader sees the server; null for a request left alone. */
    protected abstract A binding(Object request);

    /** A thread's buffers, made at its first request. */
    protected abstract X newExchange();

    /** Decides {@code request} through the gate in {@code exchange}: the answer of {@link #enter}. */
    protected abstract Object decide(RuleSet rules, A api, Object request, Object response, X exchange);
}
