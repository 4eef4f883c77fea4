package dev.limiter.core.clock;

import dev.limiter.core.Clock;
import java.util.concurrent.locks.LockSupport;

/**
 * Epoch millis read from a volatile field that one daemon thread refreshes every millisecond, so the request path
 * pays a plain memory read (~1 ns) instead of {@link System#currentTimeMillis()} (~20 ns).
 *
 * <p>The accuracy it costs: the value lags real time by up to one tick (1 ms) plus the timer thread's
 * scheduling delay, which on a loaded machine can reach a few milliseconds (the thread sleeps with
 * {@link LockSupport#parkNanos}). Windows and refills are therefore late by that much, never early: a limiter
 * on this clock never admits more than its limit over any span of its own time. For limits with windows of
 * 100 ms and up the error is under a few percent of a window; for 1 ms windows use {@link SystemClock}.
 *
 * <p>One shared instance, started lazily on the first {@link #shared()} call, so a JVM that never rate-limits
 * never starts the thread. The thread is a daemon and never blocks JVM exit. The clock follows the wall clock,
 * including its steps backwards (strategies tolerate them).
 */
public final class CoarseClock implements Clock {

    /** Tick period of the shared clock. */
    public static final long TICK_NANOS = 1_000_000L;

    private volatile long millis;

    private CoarseClock() {
        this.millis = System.currentTimeMillis();
    }

    /** The one shared clock; starts its timer thread on first use. */
    public static CoarseClock shared() {
        return Holder.INSTANCE;
    }

    @Override
    public long millis() {
        return millis;
    }

    private void run() {
        for (;;) {
            LockSupport.parkNanos(TICK_NANOS);
            millis = System.currentTimeMillis();
        }
    }

    @Override
    public String toString() {
        return "CoarseClock[" + millis + "]";
    }

    /** Lazy holder: the thread starts when the class is first needed, not when {@code CoarseClock} is loaded. */
    private static final class Holder {
        static final CoarseClock INSTANCE = start();

        private static CoarseClock start() {
            CoarseClock clock = new CoarseClock();
            Thread t = new Thread(clock::run, "limiter-coarse-clock");
            t.setDaemon(true);
            t.setPriority(Thread.MAX_PRIORITY);
            t.start();
            return clock;
        }
    }
}
