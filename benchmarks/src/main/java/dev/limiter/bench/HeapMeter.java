package dev.limiter.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

/**
 * Live heap after a full collection: the difference of two readings around the allocation of N objects that stay
 * reachable is N times their retained size.
 *
 * <p>Why it insists on {@link #JVM_FLAGS}: with Serial GC, {@link System#gc()} is a full, compacting collection,
 * so "used" is exact, but only if the collector may not leave dead objects in place: by default Serial's
 * mark-compact keeps up to 5 % of the old generation as uncompacted dead space and compacts fully only every
 * fourth time, so the previous measurement's objects would still count for a collection or three (seen here as
 * negative sizes). {@code MarkSweepDeadRatio=0} forbids that, and {@code SoftRefLRUPolicyMSPerMB=0} makes every
 * collection clear soft references, so a JDK cache is not dropped between the two readings. {@code -UseTLAB}:
 * "used" counts a thread's whole allocation buffer, whose size adapts to the allocation rate, so the reading
 * after a million allocations would include a bigger buffer than the one before (about 1 MB). Readings are
 * repeated until two agree because the first collections of a fresh JVM still free start-up objects.
 */
final class HeapMeter {

    static final List<String> JVM_FLAGS =
            List.of("-XX:+UseSerialGC", "-XX:MarkSweepDeadRatio=0", "-XX:SoftRefLRUPolicyMSPerMB=0", "-XX:-UseTLAB");

    private static final int MAX_COLLECTIONS = 20;

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    HeapMeter() {
        List<String> flags = ManagementFactory.getRuntimeMXBean().getInputArguments();
        if (!flags.containsAll(JVM_FLAGS)) {
            throw new IllegalStateException("heap deltas are exact only with " + JVM_FLAGS + "; JVM flags: " + flags);
        }
    }

    long liveBytes() {
        long previous = collectAndRead();
        for (int i = 0; i < MAX_COLLECTIONS; i++) {
            long current = collectAndRead();
            if (current == previous) {
                return current;
            }
            previous = current;
        }
        return previous;
    }

    private long collectAndRead() {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
