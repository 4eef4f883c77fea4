package dev.limiter.agent.servlet;

import dev.limiter.agent.decision.HeaderTarget;

/**
 * The {@code response:} headers on a servlet response, through {@link ServletApi} ({@link HeaderTarget}); one per
 * thread, held by {@link RequestScratch}.
 */
final class HeaderWriter extends HeaderTarget<ServletApi> {

    @Override
    protected void put(ServletApi api, Object target, String name, String value) throws Throwable {
        api.header(target, name, value);
    }
}
