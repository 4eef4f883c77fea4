package dev.limiter.agent.outbound.restclient;

import dev.limiter.agent.outbound.ClientAdapter;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.rules.RuleSet;

/**
 * The adapter of Spring's blocking requests on Reactor Netty, called from the woven {@code executeInternal}: a
 * request that must wait parks its thread; a rejected one throws
 * {@link dev.limiter.api.OutboundRateLimitException}, an {@code IOException} as the method declares, which
 * {@code RestClient} and {@code RestTemplate} report as their {@code ResourceAccessException}; nothing is sent
 * before the decision. The call's end is the response's return.
 */
final class ReactorRequestLimiter extends ClientAdapter {

    ReactorRequestLimiter(OutboundGate gate) {
        super(gate, "Spring's Reactor Netty request factory");
    }

    /** {@code executeInternal(headers, body)} of {@code request}. */
    @Override
    protected Object decide(RuleSet rules, OutboundCall call, Object request, Object headers, Object body,
            Object none, boolean async) throws Throwable {
        ReactorRequestApi api = ReactorRequestApi.of(request);
        if (headers == null || !usable(api)) {
            return null;
        }
        api.begin(call, request, headers);
        return OutboundGate.answerBlocking(call, gate.decide(rules, call));
    }
}
