package dev.limiter.bootstrap;

/**
 * Remembers that the agent has started, so a second {@code -javaagent} (or a late attach on top of one) is
 * refused instead of weaving every servlet twice.
 *
 * <p>The flag lives on the bootstrap class path because the premain class holds no state: two copies of the
 * agent jar each have their own premain class, but both resolve this class from the first jar appended to the
 * bootstrap search path, so they share one flag.
 */
public final class StartGuard {

    /** Guarded by the class: premain runs once per agent, so a lock costs nothing (an atomic's var handle would). */
    private static boolean started;

    private StartGuard() {
    }

    /** True for the first caller only. */
    public static synchronized boolean claim() {
        if (started) {
            return false;
        }
        started = true;
        return true;
    }
}
