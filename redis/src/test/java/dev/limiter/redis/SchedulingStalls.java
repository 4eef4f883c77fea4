package dev.limiter.redis;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread that asks to wake every millisecond and records how late it woke: how long this JVM's threads were kept
 * off a CPU (a loaded machine, a GC pause) while a test measured something in wall-clock time. The Redis fault
 * tests bound the slowest check by the store's timeout plus a margin; on a shared 2-core machine a check can also
 * wait hundreds of ms for a CPU, which is not the store's doing, so their bounds add the worst stall seen here.
 */
final class SchedulingStalls implements AutoCloseable {

    private static final long TICK_NANOS = 1_000_000;

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong worstNanos = new AtomicLong();
    private final Thread probe;

    SchedulingStalls() {
        probe = new Thread(() -> {
            while (running.get()) {
                long start = System.nanoTime();
                LockSupport.parkNanos(TICK_NANOS);
                long late = System.nanoTime() - start - TICK_NANOS;
                worstNanos.accumulateAndGet(late, Math::max);
            }
        }, "scheduling-stalls");
        probe.setDaemon(true);
        probe.start();
    }

    void reset() {
        worstNanos.set(0);
    }

    /** The longest this probe woke late since the last {@link #reset}, in ms (rounded up). */
    long worstMillis() {
        return (worstNanos.get() + 999_999) / 1_000_000;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        probe.join();
    }
}
