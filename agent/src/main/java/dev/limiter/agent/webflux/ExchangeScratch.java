package dev.limiter.agent.webflux;

import dev.limiter.agent.decision.AddressText;
import dev.limiter.agent.decision.HttpCall;
import dev.limiter.agent.decision.RoutedPaths;
import dev.limiter.rules.Rule;
import java.net.InetAddress;

/**
 * Per-thread buffers for one exchange's decision (an event loop serves many exchanges, one at a time), reused so
 * that an allowed exchange for an existing key allocates nothing on the agent's side: the matched rules (kept for
 * the next exchange of the same method and path, as the servlet adapter does), the peer's address text (kept
 * for the next exchange from the same address: {@code getHostAddress()} makes a new string each call), the
 * path within the application, the header writer, and what every decision keeps ({@link HttpCall}).
 */
final class ExchangeScratch extends HttpCall<WebfluxApi> {

    private final AddressText peerText = new AddressText();

    private String lastFullPath;
    private String lastContext;
    private String lastAppPath;

    final WebfluxHeaders headers = new WebfluxHeaders();

    /**
     * The decoded path within the application (what routing sees): the request's path without the context path
     * ({@code spring.webflux.base-path}) and without {@code ;} segment parameters, which Spring's routing ignores
     * ({@link RoutedPaths}); the cut is kept for the next exchange of the same path.
     */
    String path(WebfluxApi api, Object request) throws Throwable {
        String full = api.fullPath(request);
        if (full != null && full.indexOf(';') >= 0) {
            full = RoutedPaths.ruleView(api.rawPath(request));
        }
        String context = api.contextPath(request);
        if (full == null || context == null || context.isEmpty() || !full.startsWith(context)) {
            return full;
        }
        if (full.equals(lastFullPath) && context.equals(lastContext)) {
            return lastAppPath;
        }
        String cut = full.length() == context.length() ? "/" : full.substring(context.length());
        lastFullPath = full;
        lastContext = context;
        lastAppPath = cut;
        return cut;
    }

    /** The text of the peer address, kept while the same address keeps coming ({@link AddressText}). */
    String peerText(InetAddress peer) {
        return peerText.of(peer);
    }

    @Override
    protected String key(Rule rule, int index) throws Throwable {
        return WebfluxKeys.key(rule, rules, api, request, path, this);
    }

    /** A condition's header: the request's first value. */
    @Override
    public String header(String name) throws Throwable {
        return api.header(request, name);
    }

    /** A condition's client address, after the trusted proxies. */
    @Override
    public String clientAddress() throws Throwable {
        return WebfluxKeys.clientAddress(rules.clientIp(), api, request, this);
    }

    // isUserInRole stays false: WebFlux supplies no user before the handler runs (docs/rules.md)

    @Override
    protected String missingKey(Rule rule, int index) {
        return WebfluxKeys.missing(rule);
    }

    @Override
    protected String where() {
        return "";
    }

    @Override
    protected String noun() {
        return "request";
    }
}
