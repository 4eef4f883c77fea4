package dev.limiter.core.clock;

/**
 * The one source of time for every strategy, so tests can drive time by hand and production can use a clock
 * that is cheaper to read than {@link System#currentTimeMillis()}.
 *
 * <p>Values are epoch milliseconds. A clock may step backwards (NTP, a VM resumed from a snapshot): every
 * strategy must tolerate that without negative tokens, a stuck window or an exception.
 */
@FunctionalInterface
public interface Clock {

    /** Current time in epoch milliseconds. Must not allocate. */
    long millis();
}
