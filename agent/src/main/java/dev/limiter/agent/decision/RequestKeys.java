package dev.limiter.agent.decision;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * Reads a rule's key from the HTTP request being served on this thread, for checks that run inside it (woven
 * JAX-RS and plain methods keyed on {@code ip}, {@code header:}, {@code principal} ...). Implemented by the
 * servlet adapter and handed to the others at start-up, so they need not know the servlet API.
 */
public interface RequestKeys {

    /**
     * The key of {@code rule} for {@code request}, or null if {@code request} is not an HTTP request the agent
     * can read. A missing header, parameter or user is the empty key, as for HTTP rules.
     */
    String key(Rule rule, RuleSet rules, Object request) throws Throwable;

    /** The first value of header {@code name} of {@code request}, or null (for a rule's conditions). */
    String header(Object request, String name) throws Throwable;

    /** The client's address of {@code request} after the trusted-proxy rules, or null. */
    String clientAddress(RuleSet rules, Object request) throws Throwable;

    /** True if the user of {@code request} has {@code role}. */
    boolean isUserInRole(Object request, String role) throws Throwable;
}
