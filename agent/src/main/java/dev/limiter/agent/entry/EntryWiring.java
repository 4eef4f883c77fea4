package dev.limiter.agent.entry;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.http.HttpGate;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.rules.reload.RuleSetHolder;

/** What an {@link EntryPoint} is installed with: the rules in force, the agent's error log, the one HTTP gate. */
public final class EntryWiring {

    private final RuleSetHolder holder;
    private final ThrottledLog log;
    private final HttpGate http;
    private OutboundClients clients;

    public EntryWiring(RuleSetHolder holder, ThrottledLog log) {
        this.holder = holder;
        this.log = log;
        this.http = new HttpGate(holder, log, true);
    }

    public RuleSetHolder holder() {
        return holder;
    }

    public ThrottledLog log() {
        return log;
    }

    /**
     * The registry every HTTP client's kind joins, made when the first one asks (installation runs on one thread)
     * and put into the client bridge by {@link #installClients} once all have joined.
     */
    public OutboundClients clients() {
        if (clients == null) {
            clients = OutboundClients.over(holder, log);
        }
        return clients;
    }

    /** After every entry point is installed: the clients' registry into the bridge, if any client joined it. */
    public void installClients() {
        if (clients != null) {
            clients.install();
        }
    }

    /** The gate every HTTP server's entry shares (it opens the JMX registration at the first request). */
    public HttpGate http() {
        return http;
    }
}
