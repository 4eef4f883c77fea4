package dev.limiter.agent.method;

import java.lang.ref.WeakReference;

/**
 * A {@code throw:} class as resolved for one site: the class, held weakly (it belongs to the application's
 * loader, which a site must not keep alive), or null when it cannot be used there and the default
 * {@code RateLimitExceededException} is thrown instead.
 */
final class ThrowTarget {

    final String className;
    private final WeakReference<Class<?>> type;

    ThrowTarget(String className, Class<?> type) {
        this.className = className;
        this.type = type == null ? null : new WeakReference<>(type);
    }

    /** The usable class, or null (unusable, or its loader is gone). */
    Class<?> type() {
        return type == null ? null : type.get();
    }
}
