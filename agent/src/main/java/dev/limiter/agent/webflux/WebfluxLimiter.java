package dev.limiter.agent.webflux;

import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.http.HttpEntry;
import dev.limiter.agent.http.HttpGate;
import dev.limiter.agent.http.PermitRelease;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.ReactiveBridge;
import dev.limiter.bootstrap.ReactiveDelegate;
import dev.limiter.rules.RuleSet;

/**
 * The WebFlux entry: the woven {@code HttpWebHandlerAdapter.handle} calls it through {@link ReactiveBridge} on the
 * event loop, once per exchange (no forward, include or error re-dispatch exists in WebFlux), and it hands the
 * exchange to the {@link HttpGate} through {@link WebfluxApi}. A rejection is the {@code Mono} of its write,
 * returned instead of running the handler; an admitted exchange's permits go back when the handler's {@code Mono}
 * ends ({@link PermitRelease} as its {@code doFinally}).
 */
public final class WebfluxLimiter extends HttpEntry<WebfluxApi, WebfluxExchange> implements ReactiveDelegate {

    public WebfluxLimiter(HttpGate gate) {
        super(gate);
    }

    @Override
    protected WebfluxApi binding(Object request) {
        return WebfluxApi.of(request);
    }

    /** The context-path cut is kept per event loop. */
    @Override
    protected WebfluxExchange newExchange() {
        return new WebfluxExchange();
    }

    @Override
    protected Object decide(RuleSet rules, WebfluxApi api, Object request, Object response,
            WebfluxExchange exchange) {
        return gate.check(rules, api, request, response, exchange);
    }

    @Override
    public Object onExchangeReturn(Object result, Object token) {
        PermitRelease release = (PermitRelease) token;
        if (result == null) { // no publisher to wait for: the exchange is over as far as we can tell
            release.release();
            return null;
        }
        try {
            return ((WebfluxApi) release.binding).doFinally(result, release);
        } catch (Throwable t) {
            release.release();
            LimiterBridge.countInternalError();
            gate.log().warn(Warning.RELEASE,
                    "limiter: could not wait for the end of an exchange; its permits are released now", t);
            return result;
        }
    }

    @Override
    public void onExchangeFailed(Object token) {
        ((PermitRelease) token).release();
    }
}
