package dev.limiter.agent.micronaut;

import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.http.HttpEntry;
import dev.limiter.agent.http.HttpGate;
import dev.limiter.bootstrap.FlowBridge;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.ReactiveDelegate;
import dev.limiter.rules.RuleSet;

/**
 * The Micronaut entry: the woven {@code RequestLifecycle.normalFlow} calls it through {@link FlowBridge} on the
 * event loop, once per request before any filter or route, and it hands the request to the {@link HttpGate}
 * through {@link MicronautApi}. A rejection is a flow of the rejection response, returned instead of running the
 * filters and the route, and Micronaut writes it as any response. Micronaut makes an admitted request's response
 * later, so its rate-limit headers are kept ({@link FlowBridge#hold}) and added to it when the returned flow
 * yields it. Its permits hang on the request itself and go back when Micronaut releases it
 * ({@link MicronautApi#holdUntilEnd}), not when the flow ends: a streamed body is still being written then.
 */
public final class MicronautLimiter extends HttpEntry<MicronautApi, MicronautExchange>
        implements ReactiveDelegate {

    public MicronautLimiter(HttpGate gate) {
        super(gate);
    }

    @Override
    protected MicronautApi binding(Object request) {
        MicronautApi api = MicronautApi.of(request);
        return api == MicronautApi.OTHER_SERVER ? null : api;
    }

    /** The rejection's status and headers are kept per event loop until Micronaut makes the response. */
    @Override
    protected MicronautExchange newExchange() {
        return new MicronautExchange();
    }

    @Override
    protected Object decide(RuleSet rules, MicronautApi api, Object request, Object none,
            MicronautExchange exchange) {
        exchange.clearResponse();
        Object rejection = gate.check(rules, api, request, exchange, exchange);
        // status set: a rejection that could not be written, whose headers are not the admitted request's
        if (rejection == null && exchange.status == 0 && exchange.hasHeaders()) {
            FlowBridge.hold(new HeadersOnResponse(api, exchange.takeHeaders(), gate.log()));
        }
        return rejection;
    }

    /** Adds the held headers to the response the flow yields. */
    @Override
    public Object onExchangeReturn(Object flow, Object token) {
        HeadersOnResponse headers = (HeadersOnResponse) token;
        if (flow == null) {
            return null;
        }
        try {
            return headers.api.map(flow, headers);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            gate.log().warn(Warning.RENDERING,
                    "limiter: could not add the rate-limit headers to a Micronaut response", t);
            return flow;
        }
    }

    /** Nothing to give back: the headers are dropped, the permits go with the request. */
    @Override
    public void onExchangeFailed(Object token) {
    }
}
