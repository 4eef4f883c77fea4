package dev.limiter.agent.method;

import dev.limiter.agent.jaxrs.JaxrsNamespace;

/**
 * What a woven method is: a plain method named by a {@code method:} rule, or a JAX-RS resource method of one
 * namespace, named by a {@code jaxrs:} rule. It decides which rules apply and what a rejection looks like.
 */
public enum SiteKind {
    /** A plain method: {@code method:} rules; rejected with an exception ({@code throw:}). */
    METHOD,
    /** A {@code javax.ws.rs} resource method: {@code jaxrs:} rules; rejected with a 429 response. */
    JAXRS_JAVAX,
    /** A {@code jakarta.ws.rs} resource method: {@code jaxrs:} rules; rejected with a 429 response. */
    JAXRS_JAKARTA;

    /** True for the JAX-RS kinds. */
    public boolean jaxrs() {
        return this != METHOD;
    }

    /** The JAX-RS API of a JAX-RS kind; null for {@link #METHOD}. */
    public JaxrsNamespace namespace() {
        switch (this) {
            case JAXRS_JAVAX:
                return JaxrsNamespace.JAVAX;
            case JAXRS_JAKARTA:
                return JaxrsNamespace.JAKARTA;
            default:
                return null;
        }
    }

    /** The JAX-RS kind of a namespace. */
    static SiteKind of(JaxrsNamespace ns) {
        return ns == JaxrsNamespace.JAVAX ? JAXRS_JAVAX : JAXRS_JAKARTA;
    }
}
