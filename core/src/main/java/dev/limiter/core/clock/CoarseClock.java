package dev.limiter.core.clock;

import java.util.concurrent.locks.LockSupport;

/**
 * Epoch millis read from a volatile field that one daemon thread refreshes every millisecond, so the request path
 * pays a plain memory read (~2 ns) instead of {@link System#currentTimeMillis()} (~30 ns on our 2-core VM with
 * the TSC clock source; several times that on VMs whose clock source needs a system call).
 *
 * <p>The accuracy it costs: the value lags real time by up to one tick (1 ms, plus the oversleep of
 * {@link LockSupport#parkNanos}) plus however long the timer thread waits for a CPU. Measured with the
 * benchmarks' {@code CoarseClockLag} on a shared 2-core VM (docs/strategies.md, "Time"): at load 8, p50 1 ms,
 * p99 6 ms, max 60 ms; with the CPUs saturated, p99 34 ms, max ~100 ms. Windows and refills are therefore late
 * by that much, never early: a limiter on this clock never admits more than its limit over any span of its own
 * time. For windows of a second and more that is a small fraction of a window; for windows under ~100 ms use
 * {@link SystemClock}.
 *
 * <p><b>The ticker sleeps while nobody reads.</b> Ticking costs about 2.3 % of a core (1,000 wake-ups a second,
 * measured in the agent), which an idle service should not pay. Every {@value #PROBE_TICKS} ticks the timer
 * clears {@code ticking}; the next reader finds it cleared, reads the system clock itself, sets it again and
 * wakes the timer. If a whole probe period passes without a reader, the timer parks until the next read. So a
 * busy clock costs readers one slow read per probe period, and an idle one costs nothing; a reader never sees a
 * value older than the ticking regime allows, because it trusts the field only while {@code ticking} is set.
 *
 * <p>One shared instance, started lazily on the first {@link #shared()} call, so a JVM that never rate-limits
 * never starts the thread. The thread is a daemon and never blocks JVM exit. The clock follows the wall clock,
 * including its steps backwards (strategies tolerate them).
 */
public final class CoarseClock implements Clock {

    /** Tick period of the shared clock. */
    public static final long TICK_NANOS = 1_000_000L;

    /** Ticks between two checks for readers; a period without one puts the timer to sleep. */
    static final int PROBE_TICKS = 100;

    private volatile long millis;
    private volatile boolean ticking;
    private volatile Thread timer;

    CoarseClock() {
        this.millis = System.currentTimeMillis();
        this.ticking = true;
    }

    /** The one shared clock; starts its timer thread on first use. */
    public static CoarseClock shared() {
        return Holder.INSTANCE;
    }

    @Override
    public long millis() {
        if (ticking) {
            return millis;
        }
        return resume();
    }

    /** The slow read: after a probe, or while the timer sleeps. Fresh time first, then the flag that vouches for it. */
    private long resume() {
        long now = System.currentTimeMillis();
        millis = now;
        ticking = true;
        Thread t = timer;
        if (t != null) {
            LockSupport.unpark(t);
        }
        return now;
    }

    /** True while the timer refreshes the field; false while it sleeps or probes for readers (tests). */
    boolean isTicking() {
        return ticking;
    }

    /** Starts the timer thread of this clock (one per clock). */
    CoarseClock start(String threadName) {
        Thread t = new Thread(this::run, threadName);
        t.setDaemon(true);
        t.setPriority(Thread.MAX_PRIORITY);
        timer = t;
        t.start();
        return this;
    }

    Thread timer() {
        return timer;
    }

    private void run() {
        for (;;) {
            for (int i = 0; i < PROBE_TICKS; i++) {
                LockSupport.parkNanos(TICK_NANOS);
                millis = System.currentTimeMillis();
            }
            if (ticking) {
                ticking = false; // probe: a reader in the next period sets it again
                continue;
            }
            while (!ticking) {
                LockSupport.park(this); // nobody read for a whole period: sleep until the next read
            }
        }
    }

    @Override
    public String toString() {
        return "CoarseClock[" + millis + (ticking ? "" : ", idle") + "]";
    }

    /** Lazy holder: the thread starts when the class is first needed, not when {@code CoarseClock} is loaded. */
    private static final class Holder {
        static final CoarseClock INSTANCE = new CoarseClock().start("limiter-coarse-clock");
    }
}
