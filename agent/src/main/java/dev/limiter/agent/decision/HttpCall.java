package dev.limiter.agent.decision;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * A {@link Call} for one HTTP request, whatever the server: the matched rules (kept for the next request of the
 * same method and path, {@link HttpMatches}) and, between {@link #begin} and {@link #end}, the request being
 * decided with its server's API ({@code A}: the servlet, WebFlux or Vert.x Web method handles), which subclasses
 * read keys, headers and the client address through. One per thread, reused: an allowed request for an existing
 * key allocates nothing here.
 */
public abstract class HttpCall<A> extends Call {

    private final HttpMatches matches = new HttpMatches();

    /** The request being decided: set by {@link #begin}, cleared by {@link #end}. */
    protected RuleSet rules;
    protected A api;
    protected Object request;
    protected String path;

    /** The rules matching {@code method} and {@code path} into {@link #matched()}; their count. */
    public int match(RuleSet rules, String method, String path) {
        return matches.match(rules, method, path);
    }

    /** The rules of the last {@link #match}. */
    public Rule[] matched() {
        return matches.rules();
    }

    /** Sets the request the decision reads its keys from. */
    public void begin(RuleSet rules, A api, Object request, String path) {
        this.rules = rules;
        this.api = api;
        this.request = request;
        this.path = path;
    }

    /** Drops the request (the matches stay): a thread's buffers never keep a request alive. */
    public void end() {
        rules = null;
        api = null;
        request = null;
        path = null;
        bindingRule = null;
    }
}
