package dev.limiter.agent.diagnostics;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@code java.util.logging} logger that writes at most one record per interval of each {@link Warning} kind and
 * counts what it drops.
 *
 * <p>A limiter that fails on every request must not flood the application's log (or slow it down by logging):
 * the first failure is logged with its stack trace, later ones of the same kind only as "N similar messages
 * suppressed" once the interval has passed. Kinds are throttled apart, so a failure that repeats on every
 * request does not hide a different one. Only JUL is used because it is the one logging API every JVM has, and
 * the agent must not bring or configure a logging framework of its own. The logger is looked up at the first
 * record, not when the log is created in premain: an early {@code LogManager} stops servers that install their
 * own (WildFly).
 */
public final class ThrottledLog {

    private static final int KINDS = Warning.values().length;

    private final String name;
    private final long intervalNanos;
    /** Resolved at the first record: creating a Logger initialises java.util.logging, which premain avoids. */
    private volatile Logger logger;
    /** Per kind ({@link Warning#ordinal}): when its next record may be written, {@link Long#MIN_VALUE} at first. */
    private final AtomicLongArray nextAllowed = new AtomicLongArray(KINDS);
    /** Per kind: records dropped since its last written one. */
    private final AtomicLongArray suppressed = new AtomicLongArray(KINDS);

    public ThrottledLog(String name, long intervalMillis) {
        this.name = name;
        this.intervalNanos = intervalMillis * 1_000_000L;
        for (int kind = 0; kind < KINDS; kind++) {
            nextAllowed.set(kind, Long.MIN_VALUE);
        }
    }

    /** Logs at WARNING unless a record of that kind was written less than one interval ago; never throws. */
    public void warn(Warning kind, String message, Throwable error) {
        try {
            int k = kind.ordinal();
            long now = System.nanoTime();
            long next = nextAllowed.get(k);
            if ((next != Long.MIN_VALUE && now - next < 0)
                    || !nextAllowed.compareAndSet(k, next, now + intervalNanos)) {
                suppressed.incrementAndGet(k);
                return;
            }
            long dropped = suppressed.getAndSet(k, 0);
            String text = dropped == 0 ? message : message + " (" + dropped + " similar messages suppressed)";
            logger().log(Level.WARNING, text, error);
        } catch (Throwable ignored) {
            // logging must never hurt the request
        }
    }

    private Logger logger() {
        Logger current = logger;
        if (current == null) {
            current = Logger.getLogger(name); // the same instance for every caller, so a race is harmless
            logger = current;
        }
        return current;
    }

    /** Messages of {@code kind} dropped since its last written record. */
    public long suppressed(Warning kind) {
        return suppressed.get(kind.ordinal());
    }
}
