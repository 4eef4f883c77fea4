package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * Fixed window counter: at most {@code limit} permits in each clock-aligned window
 * {@code [k * windowMillis, (k + 1) * windowMillis)}.
 *
 * <p>State: one word in slot 0, high 32 bits = window index {@code k} (mod 2^32), low 32 bits = count. One CAS
 * per request both counts and, when the window has changed, resets: there is no separate "reset" write that
 * could race with a count. The count is only incremented while below the limit ({@code <= 2^31 - 1}), so it
 * can never overflow its 32 bits; a corrupt full count simply rejects.
 *
 * <p>Slot 1 is only a hint: the full index of the window last rolled to. A check verifies
 * {@code hint * windowMillis <= now < (hint + 1) * windowMillis} with a multiplication and, when it holds, skips
 * the 64-bit division {@code now / windowMillis} (20-40 cycles, a large share of a ~10 ns decision). A stale or
 * racing hint only costs that division; correctness never depends on it.
 *
 * <p>Burst: up to {@code 2 * limit} around a window boundary (the end of one window plus the start of the next).
 * Use the sliding window when that matters.
 *
 * <p>Clock steps backwards: within the same window nothing changes; into the previous window, requests keep
 * counting against the stored (later) window, so a step back never grants a fresh budget; a larger step back
 * starts a new window at the current time instead of waiting (a window can never get stuck).
 *
 * <p>Stale clock readings: a thread may read the clock, wait (preempted) and reach the CAS after others have
 * moved the window on. Before a decision that only a late reading could cause (a rejection, or a stored window
 * two or more ahead, which would otherwise be taken for a step back and reset the count of the window in force)
 * the clock is read again and the decision retaken if it moved. Only a reading that still stands, so a real step
 * back, resets a window; a rejection is linearizable at the moment it read the state (found by
 * {@code FixedWindowModelTest}, Lincheck).
 *
 * <p>Eviction: {@link #retire} CASes an idle state (a past window, or nothing counted) to {@code RETIRED}, a count
 * of 2^32 - 1 that no real state holds; a check that read the state before loses its CAS, and a check on a
 * retired bucket rejects without reviving it, so the keyed store looks the key up again and no permit is taken on
 * a dropped bucket. The marker costs the admitted path nothing in the same window (its count rejects) and one
 * compare when a window rolls.
 *
 * <p>Reconfigure: a new limit applies to the current count at once (a lower limit rejects until the window
 * ends); a new window length changes the window index, so the count restarts with the next check.
 */
public final class FixedWindowStrategy implements RateLimitStrategy {

    public static final String NAME = "fixed-window";
    public static final FixedWindowStrategy INSTANCE = new FixedWindowStrategy();

    private static final long COUNT_MASK = 0xFFFF_FFFFL;

    /**
     * Slot 0 of a retired bucket: a count of 2^32 - 1, which no real state holds (a count only grows while below
     * the limit, at most 2^31 - 1).
     */
    static final long RETIRED = -1L;

    private static final Slot0Retirement RETIREMENT = new Slot0Retirement(RETIRED) {
        @Override
        boolean idle(Bucket bucket, LimitConfig config, long state) {
            return FixedWindowStrategy.idle(bucket, config, state);
        }
    };

    public FixedWindowStrategy() {
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
    public Bucket newBucket(LimitConfig config) {
        long window = Math.floorDiv(config.clock().millis(), config.windowMillis());
        return new Bucket(window << 32, window);
    }

    /** {@code floor(now / windowMillis)}, using the bucket's hint to skip the division when it is right. */
    static long windowOf(Bucket bucket, long now, long windowMillis) {
        long hint = bucket.slot1();
        long start = hint * windowMillis;
        // the high half is zero only if the product did not overflow (a hint from a shorter window, or garbage)
        if (Math.multiplyHigh(hint, windowMillis) == 0 && start >= 0 && now >= start && now - start < windowMillis) {
            return hint;
        }
        return Math.floorDiv(now, windowMillis);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return check(bucket, config, 1, out);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long permits, long[] out) {
        long now = config.clock().millis();
        long windowMillis = config.windowMillis();
        long limit = config.limit();
        long nowWindow = windowOf(bucket, now, windowMillis);
        for (;;) {
            long state = bucket.slot0();
            int ahead = (int) (state >>> 32) - (int) nowWindow;
            long window;
            long count;
            if (ahead == 0 || ahead == 1) {
                window = nowWindow + ahead;
                count = state & COUNT_MASK;
            } else {
                if (state == RETIRED) { // never revived: the caller looks the key up again
                    return Outcome.reject(out, 0, now, 0, limit);
                }
                if (ahead > 1) { // the stored window is 2+ ahead: a step back, or this clock reading is stale
                    long fresh = config.clock().millis();
                    if (fresh != now) {
                        now = fresh;
                        nowWindow = Math.floorDiv(now, windowMillis);
                        continue;
                    }
                }
                window = nowWindow;
                count = 0;
            }
            long windowEnd = (window + 1) * windowMillis;
            if (count + permits > limit) {
                if (state == RETIRED) { // its count (2^32 - 1) lands here when its window index matches
                    return Outcome.reject(out, 0, now, 0, limit);
                }
                long fresh = config.clock().millis();
                if (fresh != now) { // the window may have ended since the clock was read
                    now = fresh;
                    nowWindow = windowOf(bucket, now, windowMillis);
                    continue;
                }
                return Outcome.reject(out, 0, windowEnd, windowEnd - now, limit);
            }
            if (bucket.casSlot0(state, (window << 32) | (count + permits))) {
                if (count == 0) {
                    bucket.setSlot1(window); // rolled (or first use): refresh the hint, once per window
                }
                Outcome.allow(out, limit - count - permits, windowEnd, limit);
                Outcome.stamp(out, window);
                return true;
            }
        }
    }

    /**
     * Takes the permits off the count of the window they were counted in ({@code stamp}); once that window has
     * ended they are gone with it (never given to the next window), and a retired bucket keeps its marker.
     */
    @Override
    public void refund(Bucket bucket, LimitConfig config, long permits, long stamp) {
        for (;;) {
            long state = bucket.slot0();
            long count = state & COUNT_MASK;
            if (state == RETIRED || (int) (state >>> 32) != (int) stamp || count < permits) {
                return;
            }
            if (bucket.casSlot0(state, state - permits)) {
                return;
            }
        }
    }

    @Override
    public boolean takesSeveral() {
        return true;
    }

    /**
     * Takes the permits in the first window, from the current one on, whose count has room: at once (0) if the
     * current window has room, else waiting until that window starts ("a fixed window waits for the next
     * window"), if that is at most {@code maxWaitNanos} away. One CAS moves the state to that window with the
     * permits counted: a window is only left behind when it is full, so nothing is lost, and every window still
     * admits at most {@code limit}. The stored window may then be ahead of now (up to {@link #reach} windows:
     * reservations, not a clock step back; {@link #isIdle} keeps such a bucket). {@link Outcome#STAMP} is the window
     * of the reservation, for a {@link #refund}. A dry-run {@link #check} on such a state reads two or more windows
     * ahead as a clock step back and starts afresh (the pending reservations' spacing is lost once).
     */
    @Override
    public long reserve(Bucket bucket, LimitConfig config, long permits, long maxWaitNanos, long[] out) {
        long now = config.clock().millis();
        long windowMillis = config.windowMillis();
        long limit = config.limit();
        long reach = reach(windowMillis);
        long nowWindow = windowOf(bucket, now, windowMillis);
        for (;;) {
            long state = bucket.slot0();
            if (state == RETIRED) { // never revived: the caller looks the key up again
                Outcome.reject(out, 0, now, 0, limit);
                return REJECTED;
            }
            int ahead = (int) (state >>> 32) - (int) nowWindow;
            long window;
            long count;
            if (ahead >= 0 && ahead <= reach) {
                window = nowWindow + ahead;
                count = state & COUNT_MASK;
            } else {
                if (ahead > reach) { // a step back, or this clock reading is stale: as in check
                    long fresh = config.clock().millis();
                    if (fresh != now) {
                        now = fresh;
                        nowWindow = Math.floorDiv(now, windowMillis);
                        continue;
                    }
                }
                window = nowWindow;
                count = 0;
            }
            if (count + permits > limit && permits <= limit) { // full: the next window starts empty
                window++;
                count = 0;
            }
            long waitMillis = Math.max(0, window * windowMillis - now); // 0: the window has started
            // no overflow: a window is at most 49 days and the state at most reach + 1 windows ahead
            if (permits > limit || waitMillis * 1_000_000L > maxWaitNanos) {
                long fresh = config.clock().millis();
                if (fresh != now) { // the window may have moved on since the clock was read
                    now = fresh;
                    nowWindow = windowOf(bucket, now, windowMillis);
                    continue;
                }
                long tooLong = permits > limit ? windowMillis
                        : waitMillis - maxWaitNanos / 1_000_000L; // when a reservation of the same max-wait fits
                return rejected(out, window * windowMillis, tooLong, limit);
            }
            if (bucket.casSlot0(state, (window << 32) | (count + permits))) {
                if (count == 0 && window == nowWindow) {
                    bucket.setSlot1(window); // rolled (or first use): refresh the hint, once per window
                }
                Outcome.allow(out, limit - count - permits, (window + 1) * windowMillis, limit);
                Outcome.stamp(out, window);
                return waitMillis * 1_000_000L;
            }
        }
    }

    /** A reservation refused: it would have waited {@code tooLongMillis} more than allowed (at least 1 ms). */
    private static long rejected(long[] out, long resetEpochMillis, long tooLongMillis, long limit) {
        Outcome.reject(out, 0, resetEpochMillis, Math.max(1, tooLongMillis), limit);
        return REJECTED;
    }

    @Override
    public boolean reserves() {
        return true;
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        long now = config.clock().millis();
        long windowMillis = config.windowMillis();
        long limit = config.limit();
        long nowWindow = windowOf(bucket, now, windowMillis);
        long state = bucket.slot0();
        int ahead = (int) (state >>> 32) - (int) nowWindow;
        long window = nowWindow;
        long count = 0;
        if (state != RETIRED && (ahead == 0 || ahead == 1)) { // a retired bucket reads as a fresh one
            window = nowWindow + ahead;
            count = state & COUNT_MASK;
        } else if (state != RETIRED && ahead > 1 && ahead <= reach(windowMillis)) {
            // reservations of later windows: nothing left now, and a retry has to wait for the stored window
            long start = (nowWindow + ahead) * windowMillis;
            Outcome.reject(out, 0, start + windowMillis, start - now, limit);
            return 0;
        }
        long windowEnd = (window + 1) * windowMillis;
        long remaining = count >= limit ? 0 : limit - count;
        if (remaining == 0) {
            Outcome.reject(out, 0, windowEnd, windowEnd - now, limit);
        } else {
            Outcome.allow(out, remaining, windowEnd, limit);
        }
        return remaining;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        long state = bucket.slot0();
        return state == RETIRED || idle(bucket, config, state);
    }

    /**
     * True if {@code state}, read before this reads the clock, counts nothing in the window in force: a clock
     * reading taken after the state cannot be older than it, so a stale reading never takes live state for idle.
     */
    private static boolean idle(Bucket bucket, LimitConfig config, long state) {
        long nowWindow = windowOf(bucket, config.clock().millis(), config.windowMillis());
        int ahead = (int) (state >>> 32) - (int) nowWindow;
        return ahead < 0 || ahead > reach(config.windowMillis()) || (state & COUNT_MASK) == 0;
    }

    /**
     * How many windows ahead of now a state may legitimately be: a reservation starts at most
     * {@link #MAX_WAIT_NANOS} after its decision, so in a window at most this far ahead. A state further ahead can
     * only come from a clock step back.
     */
    static long reach(long windowMillis) {
        return MAX_WAIT_NANOS / 1_000_000L / windowMillis + 1;
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

    @Override
    public String toString() {
        return NAME;
    }
}
