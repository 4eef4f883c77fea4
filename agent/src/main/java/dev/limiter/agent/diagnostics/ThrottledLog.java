package dev.limiter.agent.diagnostics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@code java.util.logging} logger that writes at most one record per interval and counts what it drops.
 *
 * <p>A limiter that fails on every request must not flood the application's log (or slow it down by logging):
 * the first failure is logged with its stack trace, later ones only as "N similar messages suppressed" once the
 * interval has passed. Only JUL is used because it is the one logging API every JVM has, and the agent must not
 * bring or configure a logging framework of its own. The logger is looked up at the first record, not when the
 * log is created in premain: an early {@code LogManager} stops servers that install their own (WildFly).
 */
public final class ThrottledLog {

    private final String name;
    private final long intervalNanos;
    /** Resolved at the first record: creating a Logger initialises java.util.logging, which premain avoids. */
    private volatile Logger logger;
    private final AtomicLong nextAllowed = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    public ThrottledLog(String name, long intervalMillis) {
        this.name = name;
        this.intervalNanos = intervalMillis * 1_000_000L;
    }

    /** Logs at WARNING unless a record was written less than one interval ago; never throws. */
    public void warn(String message, Throwable error) {
        try {
            long now = System.nanoTime();
            long next = nextAllowed.get();
            if ((next != Long.MIN_VALUE && now - next < 0) || !nextAllowed.compareAndSet(next, now + intervalNanos)) {
                suppressed.incrementAndGet();
                return;
            }
            long dropped = suppressed.getAndSet(0);
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

    /** Messages dropped since the last written record. */
    public long suppressed() {
        return suppressed.get();
    }
}
