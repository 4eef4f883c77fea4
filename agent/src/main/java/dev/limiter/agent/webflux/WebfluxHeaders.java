package dev.limiter.agent.webflux;

import dev.limiter.agent.decision.HeaderTarget;

/**
 * The {@code response:} headers on a WebFlux response's {@code HttpHeaders}, through {@link WebfluxApi}
 * ({@link HeaderTarget}); one per thread, held by {@link ExchangeScratch}.
 */
final class WebfluxHeaders extends HeaderTarget<WebfluxApi> {

    @Override
    protected void put(WebfluxApi api, Object target, String name, String value) throws Throwable {
        api.setHeader(target, name, value);
    }
}
