package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * Sliding window counter: the count of the previous clock-aligned window, weighted by how much of it still
 * overlaps the sliding window ending now, plus the count of the current window:
 * <pre>
 *   estimate = previous * (window - elapsed) / window + current
 *   admit if estimate + 1 &lt;= limit, i.e. previous * (window - elapsed) &lt;= (limit - current - 1) * window
 * </pre>
 * so the {@code 2 * limit} burst of a fixed window at a boundary cannot happen: right after a full window,
 * the weighted previous count still fills (almost) the whole budget.
 *
 * <p>State: both counts and the window index in ONE word (slot 0), so the roll to a new window and the count
 * are a single CAS and no two-word race exists: bits 63..42 = window index (mod 2^22), 41..21 = previous
 * count, 20..0 = current count. That bounds the limit to {@value #MAX_LIMIT} per window ({@link #validate});
 * use a token bucket for larger limits. The 22-bit index wraps after 2^22 windows: a key idle for 2^22 - 1,
 * 2^22 or 2^22 + 1 windows (or the same distance from a multiple of 2^22; 70 minutes with 1 ms windows, 48.5
 * days with 1 s windows) sees its old counts again, for at most two windows, which only rejects (tested).
 *
 * <p>Slot 1 is only a hint, the full index of the window last rolled to, used to skip the 64-bit division
 * {@code now / windowMillis} when it verifies (see {@link FixedWindowStrategy}).
 *
 * <p>Exact under contention: each admission is one CAS from a state whose estimate admits it, so never more
 * than {@code limit} are admitted per the estimate, however many threads race.
 *
 * <p>Clock steps backwards: as for the fixed window: a step into the previous window keeps counting against
 * the stored window (as if at its start, the most conservative weight); a larger step back starts afresh.
 *
 * <p>Stale clock readings: as for the fixed window, a rejection or a stored window two or more ahead reads the
 * clock again and decides again if it moved, so a reading that went stale before the CAS never resets the
 * counts of the window in force (found by {@code SlidingWindowModelTest}, Lincheck).
 *
 * <p>Eviction: {@link #retire} CASes an idle state to {@code RETIRED}, a previous count without a current one,
 * which no real state holds (every check writes a current count of at least 1); a check on a retired bucket
 * rejects without reviving it (one compare of the state it read), so the keyed store looks the key up again and
 * no permit is taken on a dropped bucket.
 *
 * <p>Reconfigure: a new limit applies to the counts at once; a new window length changes the window index, so
 * both counts restart with the next check.
 */
public final class SlidingWindowStrategy implements RateLimitStrategy {

    public static final String NAME = "sliding-window";
    public static final SlidingWindowStrategy INSTANCE = new SlidingWindowStrategy();

    /** Largest limit per window: counts are packed in 21 bits. */
    public static final long MAX_LIMIT = (1L << 21) - 1;

    private static final int COUNT_BITS = 21;
    private static final long COUNT_MASK = MAX_LIMIT;
    private static final int INDEX_SHIFT = 2 * COUNT_BITS;

    /**
     * Slot 0 of a retired bucket: a previous count but no current one, which no real state holds (a new bucket
     * has both counts zero, every check writes a current count of at least 1, and a refund never writes it).
     */
    static final long RETIRED = COUNT_MASK << COUNT_BITS;

    private static final Slot0Retirement RETIREMENT = new Slot0Retirement(RETIRED) {
        @Override
        boolean idle(Bucket bucket, LimitConfig config, long state) {
            return SlidingWindowStrategy.idle(bucket, config, state);
        }
    };

    public SlidingWindowStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Its only budget is the limit. */
    @Override
    public boolean usesCapacity() {
        return false;
    }

    @Override
    public void validate(LimitConfig config) {
        if (config.limit() > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "sliding-window supports a limit of at most " + MAX_LIMIT + " per window: " + config.limit());
        }
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        long window = Math.floorDiv(config.clock().millis(), config.windowMillis());
        return new Bucket(window << INDEX_SHIFT, window);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return check(bucket, config, 1, out);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long permits, long[] out) {
        long now = config.clock().millis();
        long windowMillis = config.windowMillis();
        long limit = Math.min(config.limit(), MAX_LIMIT);
        long nowWindow = FixedWindowStrategy.windowOf(bucket, now, windowMillis);
        for (;;) {
            long state = bucket.slot0();
            if (state == RETIRED) { // never revived: the caller looks the key up again
                return Outcome.reject(out, 0, now, 0, limit);
            }
            long ahead = ((state >>> INDEX_SHIFT) - nowWindow) << INDEX_SHIFT >> INDEX_SHIFT;
            long window;
            long previous;
            long current;
            if (ahead == 0 || ahead == 1) {
                window = nowWindow + ahead;
                previous = (state >>> COUNT_BITS) & COUNT_MASK;
                current = state & COUNT_MASK;
            } else if (ahead == -1) {
                window = nowWindow;
                previous = state & COUNT_MASK;
                current = 0;
            } else {
                if (ahead > 1) { // the stored window is 2+ ahead: a step back, or this clock reading is stale
                    long fresh = config.clock().millis();
                    if (fresh != now) {
                        now = fresh;
                        nowWindow = Math.floorDiv(now, windowMillis);
                        continue;
                    }
                }
                window = nowWindow;
                previous = 0;
                current = 0;
            }
            long start = window * windowMillis;
            long overlap = windowMillis - (now > start ? now - start : 0);
            long weighted = previous * overlap;
            if (current + permits <= limit && weighted <= (limit - current - permits) * windowMillis) {
                long next = (window << INDEX_SHIFT) | (previous << COUNT_BITS) | (current + permits);
                if (bucket.casSlot0(state, next)) {
                    if (current == 0) {
                        bucket.setSlot1(window); // rolled (or first use): refresh the hint
                    }
                    long remaining = limit - current - permits
                            - (weighted == 0 ? 0 : ceilDiv(weighted, windowMillis));
                    Outcome.allow(out, remaining, start + 2 * windowMillis, limit);
                    Outcome.stamp(out, window);
                    return true;
                }
            } else {
                long fresh = config.clock().millis();
                if (fresh != now) { // the previous window may weigh less, or have ended, since the clock was read
                    now = fresh;
                    nowWindow = FixedWindowStrategy.windowOf(bucket, now, windowMillis);
                    continue;
                }
                // several permits need the room of one permit under a limit lowered by the others
                return Outcome.reject(out, 0, start + 2 * windowMillis,
                        retryAfter(now, start, windowMillis, limit - permits + 1, previous, current), limit);
            }
        }
    }

    /** Milliseconds until the estimate admits one more request, assuming no other traffic. */
    private static long retryAfter(long now, long start, long windowMillis, long limit, long previous,
            long current) {
        if (current < limit) {
            // previous > 0 here; need previous * (window - e) <= (limit - current - 1) * window
            long elapsedNeeded = windowMillis - ((limit - current - 1) * windowMillis) / previous;
            return start + elapsedNeeded - now;
        }
        // wait for the next window, where "current" becomes the weighted previous count
        long elapsedNeeded = windowMillis - ((limit - 1) * windowMillis) / current;
        return start + windowMillis + elapsedNeeded - now;
    }

    /**
     * Takes the permits off the count they were added to: the current count while their window ({@code stamp}) is
     * in force, the previous count once it has rolled by one (where they still weigh), nothing after that. A
     * retired bucket keeps its marker, and a refund that would write the marker's value keeps the permits.
     */
    @Override
    public void refund(Bucket bucket, LimitConfig config, long permits, long stamp) {
        for (;;) {
            long state = bucket.slot0();
            if (state == RETIRED) {
                return;
            }
            long ahead = ((state >>> INDEX_SHIFT) - stamp) << INDEX_SHIFT >> INDEX_SHIFT;
            long next;
            if (ahead == 0 && (state & COUNT_MASK) >= permits) {
                next = state - permits;
            } else if (ahead == 1 && ((state >>> COUNT_BITS) & COUNT_MASK) >= permits) {
                next = state - (permits << COUNT_BITS);
            } else {
                return;
            }
            if (next == RETIRED || bucket.casSlot0(state, next)) {
                return;
            }
        }
    }

    @Override
    public boolean takesSeveral() {
        return true;
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        long now = config.clock().millis();
        long windowMillis = config.windowMillis();
        long limit = Math.min(config.limit(), MAX_LIMIT);
        long nowWindow = FixedWindowStrategy.windowOf(bucket, now, windowMillis);
        long state = bucket.slot0();
        long ahead = ((state >>> INDEX_SHIFT) - nowWindow) << INDEX_SHIFT >> INDEX_SHIFT;
        long window = nowWindow;
        long previous = 0;
        long current = 0;
        if (state == RETIRED) {
            ahead = 2; // reads as a fresh bucket
        }
        if (ahead == 0 || ahead == 1) {
            window = nowWindow + ahead;
            previous = (state >>> COUNT_BITS) & COUNT_MASK;
            current = state & COUNT_MASK;
        } else if (ahead == -1) {
            previous = state & COUNT_MASK;
        }
        long start = window * windowMillis;
        long overlap = windowMillis - (now > start ? now - start : 0);
        long remaining = limit - current - ceilDiv(previous * overlap, windowMillis);
        if (remaining <= 0) {
            Outcome.reject(out, 0, start + 2 * windowMillis,
                    retryAfter(now, start, windowMillis, limit, previous, current), limit);
            return 0;
        }
        Outcome.allow(out, remaining, start + 2 * windowMillis, limit);
        return remaining;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        long state = bucket.slot0();
        return state == RETIRED || idle(bucket, config, state);
    }

    /** CASes an idle state to {@link #RETIRED}; see {@link Slot0Retirement}. */
    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        return RETIREMENT.retire(bucket, config);
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        return RETIREMENT.isRetired(bucket);
    }

    /**
     * True if {@code state}, read before this reads the clock, counts nothing that weighs now: a clock reading
     * taken after the state cannot be older than it, so a stale reading never takes live state for idle.
     */
    private static boolean idle(Bucket bucket, LimitConfig config, long state) {
        long nowWindow = FixedWindowStrategy.windowOf(bucket, config.clock().millis(), config.windowMillis());
        long ahead = ((state >>> INDEX_SHIFT) - nowWindow) << INDEX_SHIFT >> INDEX_SHIFT;
        if (ahead == 0 || ahead == 1) {
            return (state & ((COUNT_MASK << COUNT_BITS) | COUNT_MASK)) == 0;
        }
        return ahead != -1 || (state & COUNT_MASK) == 0;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    @Override
    public String toString() {
        return NAME;
    }
}
