package dev.limiter.agent.servlet;

import dev.limiter.agent.decision.HttpCall;
import dev.limiter.rules.Rule;

/**
 * Per-thread buffers for one request's decision, allocated once per thread and reused, so that checking an
 * allowed request allocates nothing: the matched rules (kept for the next request of the same method and path,
 * {@link #match}), the request the decision reads keys from, the header buffers, the last joined request path
 * ({@link JoinedPath}), and what every HTTP decision keeps ({@link HttpCall}: outcomes, held permits).
 *
 * <p>Only its own thread touches it (it hangs off the thread's {@code RequestFrame}); arrays grow on the rare
 * request that matches more rules than any before it on this thread. A virtual thread borrows one from the
 * {@link ScratchPool} for its request instead ({@link #pooled}).
 */
final class RequestScratch extends HttpCall<ServletApi> {

    /** Yes: the servlet adapter parks the container thread before the servlet runs ({@code Waiting.park}). */
    @Override
    protected boolean parksAfterDecision() {
        return true;
    }

    /** Made for a virtual thread: goes back to the {@link ScratchPool} when the request ends. */
    boolean pooled;

    final HeaderWriter headers = new HeaderWriter();
    final JoinedPath paths = new JoinedPath();

    @Override
    protected String key(Rule rule, int index) throws Throwable {
        return KeyExtractor.key(rule, rules, api, request, path);
    }

    @Override
    public String header(String name) throws Throwable {
        return api.header(request, name);
    }

    @Override
    public String clientAddress() throws Throwable {
        return KeyExtractor.clientAddress(rules.clientIp(), api, request);
    }

    @Override
    public boolean isUserInRole(String role) throws Throwable {
        return api.isUserInRole(request, role);
    }

    @Override
    protected String missingKey(Rule rule, int index) {
        return "limiter: rule " + rule.id() + " has no key for this request";
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
