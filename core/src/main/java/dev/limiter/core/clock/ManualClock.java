package dev.limiter.core.clock;


/**
 * A clock moved by hand, for deterministic tests: strategies see exactly the instants the test chooses, and a
 * clock frozen during a contention test makes the expected admission count exact. It may be set backwards to
 * test clock steps. Thread-safe (one volatile long).
 */
public final class ManualClock implements Clock {

    private volatile long millis;

    public ManualClock(long startMillis) {
        this.millis = startMillis;
    }

    /** Starts at 2026-01-01T00:00:00Z, a realistic epoch value. */
    public ManualClock() {
        this(1_767_225_600_000L);
    }

    @Override
    public long millis() {
        return millis;
    }

    /** Sets the time; may go backwards. */
    public void set(long epochMillis) {
        this.millis = epochMillis;
    }

    /** Moves the time by {@code deltaMillis} (negative steps backwards). Not atomic with concurrent advances. */
    public void advance(long deltaMillis) {
        this.millis = millis + deltaMillis;
    }

    @Override
    public String toString() {
        return "ManualClock[" + millis + "]";
    }
}
