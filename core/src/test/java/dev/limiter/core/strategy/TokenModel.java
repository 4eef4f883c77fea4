package dev.limiter.core.strategy;

/**
 * The token bucket and the GCRA meter as the documented counter: a store of permits, refilled continuously at
 * the rate and capped at the capacity, that an admission empties by one. Counted in exact units (one permit =
 * {@link #COST} units, one millisecond adds {@link #PER_MILLI}), but as a count of tokens, not as the virtual
 * time base or arrival time the strategies keep, so it does not share their arithmetic.
 *
 * <p>The sequential specification of {@link TokenBucketModelTest} and {@link LeakyBucketModelTest}: 1 permit
 * per 2 ms (so a permit is two units and a tick refills half of one), capacity 2, starting full.
 */
public final class TokenModel {

    static final long START = 1_767_225_600_000L;
    static final long LIMIT = 1;
    static final long WINDOW = 2;
    static final long CAPACITY = 2;
    static final long PER_MILLI = 1;
    static final long COST = 2;

    private long units = CAPACITY * COST;

    /** Remaining permits if admitted, -1 if rejected. */
    public long check() {
        if (units < COST) {
            return -1;
        }
        units -= COST;
        return units / COST;
    }

    public void tick() {
        units = Math.min(CAPACITY * COST, units + PER_MILLI);
    }
}
