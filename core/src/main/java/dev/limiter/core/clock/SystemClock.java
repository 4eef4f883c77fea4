package dev.limiter.core.clock;


/**
 * {@link System#currentTimeMillis()}: always exact, but a call costs ~20 ns on Linux (vDSO) and more in some
 * virtualised environments, which would dominate a ~10 ns admission. Use {@link CoarseClock} on hot paths.
 */
public final class SystemClock implements Clock {

    public static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public String toString() {
        return "SystemClock";
    }
}
