package dev.limiter.agent.http;

import dev.limiter.agent.decision.RequestKeys;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * The HTTP keys of checks that run inside a request (woven JAX-RS resource methods and plain methods keyed on
 * {@code ip}, {@code header:} ...), for whichever request is current on the thread: each server that can hand its
 * request to woven methods registers a {@link Lookup} (the servlet request, a Quarkus REST context), and the first
 * that knows the request reads it with the same key reader as the gate ({@link HttpKeys}).
 */
public final class RequestViews implements RequestKeys {

    /** Finds the view of one kind of request, or null if {@code request} is not of its kind. */
    public interface Lookup {
        RequestView viewOf(Object request);
    }

    /** Per thread (anonymous class, not a lambda: nothing to spin on the first call). */
    private static final ThreadLocal<PeerCache> PEERS = new ThreadLocal<>() {
        @Override
        protected PeerCache initialValue() {
            return new PeerCache();
        }
    };

    private final Lookup[] lookups;

    public RequestViews(Lookup... lookups) {
        this.lookups = lookups.clone();
    }

    private RequestView view(Object request) {
        for (Lookup lookup : lookups) {
            RequestView view = lookup.viewOf(request);
            if (view != null) {
                return view;
            }
        }
        return null;
    }

    @Override
    public String key(Rule rule, RuleSet rules, Object request) throws Throwable {
        RequestView view = view(request);
        return view == null ? null : HttpKeys.key(rule, rules, view, request, null, PEERS.get());
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        RequestView view = view(request);
        return view == null ? null : view.header(request, name);
    }

    @Override
    public String clientAddress(RuleSet rules, Object request) throws Throwable {
        RequestView view = view(request);
        return view == null ? null : ClientAddress.of(rules.clientIp(), view, request, PEERS.get());
    }

    @Override
    public boolean isUserInRole(Object request, String role) throws Throwable {
        RequestView view = view(request);
        return view != null && !view.lacks(RequestView.NO_PRINCIPAL) && view.isUserInRole(request, role);
    }
}
