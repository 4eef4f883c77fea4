package dev.limiter.agent.diagnostics;

/**
 * The kinds of warning the agent writes. {@link ThrottledLog} throttles each kind on its own, so a flood of one
 * (a key missing from every anonymous request) never hides the one record of another (a class that could not be
 * woven).
 */
public enum Warning {
    /** A framework's or client's version the agent cannot serve: its requests or calls run unlimited. */
    UNSUPPORTED,
    /** A class could not be woven, retransformed or inspected, or an entry point could not be installed. */
    WEAVING,
    /** A rule names classes that were not loaded, or that could not be checked. */
    RULES,
    /** A rule found no key in a request or call ({@code on-error} resolves it). */
    MISSING_KEY,
    /** Matching or deciding a request or call failed ({@code on-error} resolves it). */
    DECISION,
    /** A rejection or the rate-limit headers could not be written. */
    RENDERING,
    /** The end of a request or call could not be waited for: its permits were released at once. */
    RELEASE
}
