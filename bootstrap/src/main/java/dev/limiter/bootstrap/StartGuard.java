package dev.limiter.bootstrap;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Remembers that the agent has started, so a second {@code -javaagent} (or a late attach on top of one) is
 * refused instead of weaving every servlet twice.
 *
 * <p>The flag lives on the bootstrap class path because the premain class holds no state: two copies of the
 * agent jar each have their own premain class, but both resolve this class from the first jar appended to the
 * bootstrap search path, so they share one flag.
 */
public final class StartGuard {

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private StartGuard() {
    }

    /** True for the first caller only. */
    public static boolean claim() {
        return STARTED.compareAndSet(false, true);
    }
}
