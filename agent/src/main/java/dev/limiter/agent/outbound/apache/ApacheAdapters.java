package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.outbound.OutboundClients;

/** Apache's two clients behind one adapter: a blocking call to the classic one's, the async step to the other. */
final class ApacheAdapters implements OutboundClients.Adapter {

    private final OutboundClients.Adapter classic;
    private final OutboundClients.Adapter async;

    ApacheAdapters(OutboundClients.Adapter classic, OutboundClients.Adapter async) {
        this.classic = classic;
        this.async = async;
    }

    @Override
    public Object onCallStart(Object client, Object first, Object second, Object third, boolean isAsync) {
        return (isAsync ? async : classic).onCallStart(client, first, second, third, isAsync);
    }
}
