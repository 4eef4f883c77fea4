package dev.limiter.rules.compile;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Callable;

/**
 * What one load cost and how it ended: wall time, the bytes the loading thread allocated (everything a load
 * builds is allocated on its thread, so this bounds the heap it can take), and what it threw. Printed, so a run
 * shows the numbers; tests assert only generous bounds (the machine is shared and its timing noisy).
 */
public record LoadCost(String name, long millis, long allocatedBytes, Throwable thrown) {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Runs {@code load} on this thread, catching whatever it throws (errors included: the test judges it). */
    public static LoadCost of(String name, Callable<?> load) {
        long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            load.call();
        } catch (Throwable t) {
            thrown = t;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        LoadCost cost = new LoadCost(name, millis, THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore,
                thrown);
        System.out.printf("hostile rules file: %-24s %6d ms %,14d bytes allocated%n", name, millis,
                cost.allocatedBytes());
        return cost;
    }
}
