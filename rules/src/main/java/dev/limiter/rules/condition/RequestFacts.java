package dev.limiter.rules.condition;

/**
 * What a rule's conditions may ask of the request a call belongs to. Each entry point answers from its own
 * request type (a servlet request, ...); a call without a request answers null and false.
 */
public interface RequestFacts {

    /** The first value of header {@code name}, or null if the request has none. */
    String header(String name) throws Throwable;

    /** The client's address after the trusted-proxy rules ({@code client-ip:}), or null if unknown. */
    String clientAddress() throws Throwable;

    /** True if the authenticated user has {@code role} ({@code HttpServletRequest.isUserInRole}). */
    boolean isUserInRole(String role) throws Throwable;
}
