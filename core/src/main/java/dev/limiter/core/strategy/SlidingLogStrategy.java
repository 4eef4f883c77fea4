package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Sliding log: a call is admitted iff fewer than {@code limit} permits were admitted in the last
 * {@code windowMillis} ({@code (now - window, now]}). Exact, no estimate: the log keeps the time of each of the
 * last {@code limit} admitted permits.
 *
 * <p>State: one ring of {@code limit} entries per key, allocated with the key's bucket and reused, never per call,
 * in one {@code long[]}: element 0 is the head (the next position to claim, {@code lap << 14 | index}), element 1
 * the base that times are counted from, then the entries. An entry is one word: the admission time (34 bits of
 * milliseconds from the base), a tag (its position's lap, mod 2^16) and, in the first entry of a call, the call's
 * permits (14 bits). Positions are claimed in order, so the entry at the head is the permit admitted
 * {@code limit} positions earlier, the oldest that can still count: a permit is admitted iff the entry it replaces
 * has left the window. The tag tells the entry a claim replaces (the previous lap's) from one already claimed.
 *
 * <p>Claims, lock-free. A check reads the head, the entries its permits replace (one per permit) and, if they have
 * all left the window, CASes the entry at the head from exactly the value it read to the new one (time, this
 * lap's tag, permits): that CAS is the decision, one per call. The head then moves past the call once its other
 * entries (its followers) carry the same time. Any thread that finds the entry at the head already claimed does
 * that for the claimer and retries (helping: nobody waits for a thread descheduled after its CAS). Never more than
 * {@code limit} in a window: each admitted permit replaced the entry {@code limit} positions before it, and only
 * once that one had left the window, so the first and the last of any {@code limit + 1} consecutive positions are
 * at least a window apart (tested exactly under contention; model-checked with Lincheck: {@code
 * SlidingLogModelTest}, {@code SlidingLogSeveralPermitsModelTest}, {@code SlidingLogReconfigureModelTest}).
 *
 * <p>Time order. A call is recorded at {@code max(now, time of the entry before it)}: a thread whose clock reading
 * went stale before its CAS (preempted) is recorded when the call before it was, when its own call did happen at
 * the latest, so the log stays sorted and the entry at the head is the oldest. The decision uses {@code now}, so a
 * stale reading can only reject, and a rejection reads the clock again before it is final (as the windows do).
 *
 * <p>Clock steps. An entry more than a window ahead of the clock can only come from a step back (a stale reading
 * is ruled out by reading the clock again): it is read as gone, so a step back costs at most one fresh budget and
 * never makes a key wait for the old time; an entry less than a window ahead still counts, so a small step back
 * delays the key by at most the step and one window. A step forward: every entry has left the window.
 *
 * <p>Several permits ({@code cost}): as many entries, taken together or not at all (the one CAS decides them; the
 * followers carry its time). {@link Outcome#STAMP} is the time the call is recorded at. {@link #refund} gives
 * permits back by moving the oldest entries that count out of the window ({@code now - window}, one CAS each, if
 * they are no newer than the refunded call): the log counts that many permits fewer at once, and as an entry
 * moved out is no newer than the refunded one that stays, no later window counts fewer than the calls that
 * really happened. A refunded reservation (still ahead) frees an entry of its time from that time on instead.
 *
 * <p>Reservations ({@code on-limit: wait}): the call's entries get the time at which the entries they replace leave
 * the window (not before the previous entry, so waiters keep their order), and the caller waits until then. An
 * entry up to the longest wait ({@value #MAX_WAIT_MILLIS} ms) ahead is a reservation: it counts and keeps the key
 * from eviction; further ahead it can only be a step back. A {@code check} on such a log (a waiting rule switched to
 * dry-run) reads entries more than a window ahead as a step back, as the fixed window does.
 *
 * <p>Eviction: {@link #isIdle} when the newest entry has left the window (or is a step back's leftover).
 * {@link #retire} CASes the entry at the head, which the next claim must CAS, to a marker: a racing check either
 * claims first (then the log is not idle) or finds the marker, rejects, and the keyed store looks the key up again.
 *
 * <p>Reconfigure. A lower limit applies at once: a claim then needs the entry {@code limit} positions back, which
 * the larger ring still holds, so nothing is lost (the ring is not shrunk: the key keeps its memory until it is
 * evicted). A higher limit needs a larger ring: the first check under it moves the log, once per key, into a new
 * ring (the one allocation outside {@link #newBucket}): it freezes the old ring with a marker at its head (the
 * position every claim must CAS, so none lands after the copy), copies the entries in order and swaps the new ring
 * in with a CAS; a thread that finds the old ring frozen does the same, and the first swap wins, so nobody waits.
 * The same move re-bases the times every 2^32 ms (49.7 days). A new window length applies to the entries at once
 * (a longer one counts the entries the ring holds: the last {@code limit}, the largest limit the key has had).
 *
 * <p>ABA: an entry's value could only come back (and a CAS that read it long before succeed) after 65,536 laps of
 * the ring within one clock millisecond (a lap takes a window per entry, except for entries a refund moved out):
 * out of reach. A refund's CAS is also checked against the head as it is then (the entry it moves out must be the
 * oldest that counts), as a search against a head that moved on by laps can land anywhere.
 *
 * <p>Bound: {@code limit <= }{@value #MAX_LIMIT} ({@link #validate}). The ring costs 8 bytes per permit: a bucket is
 * {@code 8 * limit + 64} bytes (78 KiB at the bound), so a rule holds at most {@code max-keys * (8 * limit + 64)}
 * bytes of state. Use the sliding window or a token bucket for larger limits.
 */
public final class SlidingLogStrategy implements RateLimitStrategy {

    public static final String NAME = "sliding-log";
    public static final SlidingLogStrategy INSTANCE = new SlidingLogStrategy();

    /** Largest limit: one 8-byte entry per permit, so a key's state stays bounded (78 KiB). */
    public static final long MAX_LIMIT = 10_000;

    /** A reservation is at most this far ahead of the clock (the longest {@code max-wait}). */
    static final long MAX_WAIT_MILLIS = MAX_WAIT_NANOS / 1_000_000L;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private static final int HEAD = 0;
    private static final int BASE = 1;
    private static final int FIRST = 2;

    /** Positions: {@code lap << IDX_BITS | index}. */
    private static final int IDX_BITS = 14;
    private static final long IDX_MASK = (1L << IDX_BITS) - 1;

    /** Entries: {@code time << TIME_SHIFT | tag << TAG_SHIFT | permits}. */
    private static final int TAG_SHIFT = 14;
    private static final long N_MASK = (1L << TAG_SHIFT) - 1;
    private static final long TAG_MASK = 0xFFFF;
    private static final int TIME_SHIFT = 30;
    /** A stored time is {@code t - base + OFFSET}, in {@code [1, 2^34)}; 0 is "no admission" (a fresh entry). */
    private static final long OFFSET = 1L << 33;
    private static final long TIME_LIMIT = 1L << 34;
    /** Re-base once the clock is this far from the base, so every time a decision needs stays storable. */
    private static final long REBASE = 1L << 32;

    /** The permits field of the marker at the head of a retired log (no claim has that many permits). */
    private static final long N_RETIRED = N_MASK - 1;
    /**
     * The permits field of the entry at the head of a log being moved into a new ring: the entry keeps its time and
     * tag (it is the oldest of the log, which the copy keeps), only the field says "frozen".
     */
    private static final long N_FROZEN = N_MASK;
    /** The entry at the head of a retired log: never claimed again; the keyed store drops the bucket. */
    static final long RETIRED = N_RETIRED;

    /** The per-key state: the ring, swapped for a new one only to grow or re-base. */
    static final class LogBucket extends Bucket {
        private static final VarHandle LOG;

        static {
            try {
                LOG = MethodHandles.lookup().findVarHandle(LogBucket.class, "log", long[].class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unused") // accessed through LOG
        private long[] log;

        LogBucket(long[] log) {
            this.log = log;
        }

        long[] log() {
            return (long[]) LOG.getVolatile(this);
        }

        boolean swap(long[] expected, long[] next) {
            return LOG.compareAndSet(this, expected, next);
        }

        /** Entries in the ring (tests). */
        int size() {
            return log().length - FIRST;
        }
    }

    public SlidingLogStrategy() {
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
            throw new IllegalArgumentException("sliding-log keeps one 8-byte entry per permit: a limit of at most "
                    + MAX_LIMIT + " (use sliding-window or token-bucket above that): " + config.limit());
        }
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        int size = (int) Math.min(config.limit(), MAX_LIMIT);
        long[] log = new long[FIRST + size];
        log[BASE] = config.clock().millis();
        long fresh = TAG_MASK << TAG_SHIFT; // no admission, tagged lap -1: the entries lap 0 replaces
        for (int i = FIRST; i < log.length; i++) {
            log[i] = fresh;
        }
        return new LogBucket(log);
    }

    // ----- encoding -----

    private static int index(long position) {
        return (int) (position & IDX_MASK);
    }

    private static long tagOfPosition(long position) {
        return (position >>> IDX_BITS) & TAG_MASK;
    }

    private static long tagOf(long entry) {
        return (entry >>> TAG_SHIFT) & TAG_MASK;
    }

    private static long permitsOf(long entry) {
        return entry & N_MASK;
    }

    /** Retired or frozen: the head of a log no claim may take. */
    private static boolean isMarker(long entry) {
        return (entry & N_MASK) >= N_RETIRED;
    }

    private static boolean isFrozen(long entry) {
        return (entry & N_MASK) == N_FROZEN;
    }

    private static boolean isWrittenFor(long entry, long position) {
        return tagOf(entry) == tagOfPosition(position);
    }

    /** The entry the previous lap left at {@code position}: the one a claim of it replaces. */
    private static boolean isPreviousFor(long entry, long position) {
        return tagOf(entry) == ((tagOfPosition(position) - 1) & TAG_MASK);
    }

    /** The position {@code k} (at most the ring's size) after {@code position}. */
    private static long advance(long position, long k, int size) {
        long index = (position & IDX_MASK) + k;
        return index < size ? position + k : (((position >>> IDX_BITS) + 1) << IDX_BITS) | (index - size);
    }

    private static long previous(long position, int size) {
        return (position & IDX_MASK) > 0 ? position - 1 : (((position >>> IDX_BITS) - 1) << IDX_BITS) | (size - 1);
    }

    private static long entryAt(long[] log, long position) {
        return (long) LONGS.getVolatile(log, FIRST + index(position));
    }

    private static long headOf(long[] log) {
        return (long) LONGS.getVolatile(log, HEAD);
    }

    /** The admission time of {@code entry}, or {@link Long#MIN_VALUE} for none (a fresh entry, a marker). */
    private static long timeOf(long entry, long base) {
        return isMarker(entry) ? Long.MIN_VALUE : storedTimeOf(entry, base);
    }

    /** The time an entry holds, also a frozen one's; {@link Long#MIN_VALUE} if none. */
    private static long storedTimeOf(long entry, long base) {
        long stored = entry >>> TIME_SHIFT;
        return stored == 0 ? Long.MIN_VALUE : stored - OFFSET + base;
    }

    /** The stored form of {@code time}, or -1 if it is too far from {@code base}. */
    private static long stored(long time, long base) {
        long stored = time - base + OFFSET;
        return stored > 0 && stored < TIME_LIMIT ? stored : -1;
    }

    private static long entry(long stored, long tag, long permits) {
        return stored << TIME_SHIFT | tag << TAG_SHIFT | permits;
    }

    /** True if {@code now} is 2^32 ms (49.7 days) or more from the base: the log moves to a ring based at now. */
    private static boolean far(long now, long base) {
        long distance = now - base;
        return distance >= REBASE || distance <= -REBASE;
    }

    /** True if an entry at {@code time} does not count at {@code now}: none, left the window, or a step back's. */
    private static boolean gone(long time, long now, long window, long ahead) {
        return time == Long.MIN_VALUE || time <= now - window || time > now + ahead;
    }

    // ----- check -----

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return check(bucket, config, 1, out);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long permits, long[] out) {
        LogBucket b = (LogBucket) bucket;
        long window = config.windowMillis();
        long limit = config.limit();
        long now = config.clock().millis();
        boolean stepConfirmed = false;
        for (;;) {
            long[] log = b.log();
            int size = log.length - FIRST;
            long base = log[BASE];
            if (limit > size || far(now, base)) {
                if (!move(b, log, config, now)) {
                    return Outcome.reject(out, 0, now, 0, limit); // retired: the caller looks the key up again
                }
                continue;
            }
            long head = headOf(log);
            long first = entryAt(log, head);
            if (isMarker(first)) {
                if (first == RETIRED) {
                    return Outcome.reject(out, 0, now, 0, limit);
                }
                move(b, log, config, now); // frozen: finish the move, then retry on the new ring
                continue;
            }
            if (isWrittenFor(first, head)) {
                complete(log, head, first, size); // claimed: help the claimer, then retry
                continue;
            }
            if (!isPreviousFor(first, head)) {
                continue; // the head moved on while this read it
            }
            int lag = size - (int) limit; // entries older than the last `limit` positions do not count
            if (permits > limit) {
                return Outcome.reject(out, free(log, advance(head, lag, size), (int) limit, now, window, window),
                        newest(log, head, size, base, window, now), window, limit);
            }
            long wait = 0; // until every entry the permits replace has left the window
            boolean stepBack = false;
            long position = advance(head, lag, size);
            for (long i = 0; i < permits; i++) {
                long time = timeOf(i == 0 && lag == 0 ? first : entryAt(log, position), base);
                if (time > now + window) {
                    stepBack = true;
                } else if (!gone(time, now, window, window)) {
                    wait = Math.max(wait, time + window - now);
                }
                position = advance(position, 1, size);
            }
            if (wait > 0 || (stepBack && !stepConfirmed)) {
                long fresh = config.clock().millis();
                if (fresh != now) { // the reading was stale: decide again on the clock as it is now
                    now = fresh;
                    stepConfirmed = false;
                    continue;
                }
                if (wait > 0) {
                    return Outcome.reject(out, free(log, advance(head, lag, size), (int) limit, now, window, window),
                            newest(log, head, size, base, window, now), wait, limit);
                }
                stepConfirmed = true; // a step back indeed: the entries ahead are a past that did not happen
            }
            long previousTime = timeOf(entryAt(log, previous(head, size)), base);
            long at = previousTime > now && previousTime <= now + window ? previousTime : now;
            // what is left after this call, read before its CAS: those entries cannot change until it lands
            int left = (int) (limit - permits);
            int remaining = left == 0 ? 0 : free(log, advance(head, permits + lag, size), left, at, window, window);
            long claim = entry(stored(at, base), tagOfPosition(head), permits);
            if (LONGS.compareAndSet(log, FIRST + index(head), first, claim)) {
                complete(log, head, claim, size);
                Outcome.allow(out, remaining, at + window, limit);
                Outcome.stamp(out, at);
                return true;
            }
        }
    }

    /**
     * Finishes the claim whose first entry {@code first} is at {@code head}: writes its followers (its time, this
     * lap's tag) and moves the head past it. Idempotent, by any thread; returns once the head has moved.
     */
    private static void complete(long[] log, long head, long first, int size) {
        long permits = Math.max(1, permitsOf(first));
        long time = first >>> TIME_SHIFT;
        long position = head;
        for (long i = 1; i < permits; i++) {
            position = advance(position, 1, size);
            for (;;) {
                long follower = entryAt(log, position);
                if (isWrittenFor(follower, position)) {
                    break;
                }
                if (headOf(log) != head) {
                    return; // completed by another thread: the head moves only once every follower is written
                }
                if (LONGS.compareAndSet(log, FIRST + index(position), follower,
                        entry(time, tagOfPosition(position), 0))) {
                    break;
                }
            }
        }
        LONGS.compareAndSet(log, HEAD, head, advance(head, permits, size));
    }

    /**
     * How many single permits a check would admit at {@code now} replacing the entries from {@code from} on (at
     * most {@code count}): those that do not count, up to the first that does. The log is sorted, so they are a
     * prefix: the oldest is read first (a full log: 0 after one read), then the newest (an idle one: all after
     * two), then a search back from the newest (usually few entries are in the window: a few reads).
     */
    private static int free(long[] log, long from, int count, long now, long window, long ahead) {
        if (count <= 0) {
            return 0;
        }
        int size = log.length - FIRST;
        long base = log[BASE];
        if (!freeAt(log, from, 0, size, base, now, window, ahead)) {
            return 0;
        }
        if (freeAt(log, from, count - 1, size, base, now, window, ahead)) {
            return count;
        }
        int lo = 0; // free
        int hi = count - 1; // counts
        for (int step = 1; hi - lo > 1; step <<= 1) { // gallop back from the newest
            int probe = hi - step;
            if (probe <= lo) {
                break;
            }
            if (freeAt(log, from, probe, size, base, now, window, ahead)) {
                lo = probe;
                break;
            }
            hi = probe;
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (freeAt(log, from, mid, size, base, now, window, ahead)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** True if the entry {@code k} positions after {@code from} does not count at {@code now}. */
    private static boolean freeAt(long[] log, long from, int k, int size, long base, long now, long window,
            long ahead) {
        long position = advance(from, k, size);
        long e = entryAt(log, position);
        if (isMarker(e)) {
            return false;
        }
        // claimed since this started: it replaced an entry that did not count then
        return isWrittenFor(e, position) || gone(timeOf(e, base), now, window, ahead);
    }

    /** When the whole budget is back: a window after the newest entry (now if nothing counts). */
    private static long newest(long[] log, long head, int size, long base, long window, long now) {
        long time = timeOf(entryAt(log, previous(head, size)), base);
        return time == Long.MIN_VALUE || time <= now - window ? now : time + window;
    }

    // ----- reservations -----

    @Override
    public boolean reserves() {
        return true;
    }

    /**
     * Takes the permits at the time the entries they replace leave the window (at once if they have), not before
     * the previous entry, if that is at most {@code maxWaitNanos} away; the entries carry that time, so the log
     * counts the call from when it runs.
     */
    @Override
    public long reserve(Bucket bucket, LimitConfig config, long permits, long maxWaitNanos, long[] out) {
        LogBucket b = (LogBucket) bucket;
        long window = config.windowMillis();
        long limit = config.limit();
        long now = config.clock().millis();
        boolean stepConfirmed = false;
        for (;;) {
            long[] log = b.log();
            int size = log.length - FIRST;
            long base = log[BASE];
            if (limit > size || far(now, base)) {
                if (!move(b, log, config, now)) {
                    Outcome.reject(out, 0, now, 0, limit);
                    return REJECTED;
                }
                continue;
            }
            long head = headOf(log);
            long first = entryAt(log, head);
            if (isMarker(first)) {
                if (first == RETIRED) {
                    Outcome.reject(out, 0, now, 0, limit);
                    return REJECTED;
                }
                move(b, log, config, now);
                continue;
            }
            if (isWrittenFor(first, head)) {
                complete(log, head, first, size);
                continue;
            }
            if (!isPreviousFor(first, head)) {
                continue;
            }
            int lag = size - (int) limit;
            if (permits > limit) {
                Outcome.reject(out, free(log, advance(head, lag, size), (int) limit, now, window, MAX_WAIT_MILLIS),
                        newest(log, head, size, base, window, now), window, limit);
                return REJECTED;
            }
            long at = now;
            boolean stepBack = false;
            long position = advance(head, lag, size);
            for (long i = 0; i < permits; i++) {
                long time = timeOf(i == 0 && lag == 0 ? first : entryAt(log, position), base);
                if (time > now + MAX_WAIT_MILLIS) {
                    stepBack = true;
                } else if (time != Long.MIN_VALUE) {
                    at = Math.max(at, time + window);
                }
                position = advance(position, 1, size);
            }
            long previousTime = timeOf(entryAt(log, previous(head, size)), base);
            if (previousTime <= now + MAX_WAIT_MILLIS) {
                at = Math.max(at, previousTime); // waiters keep their order: the log stays sorted
            }
            long waitMillis = at - now;
            boolean tooLong = waitMillis * 1_000_000L > maxWaitNanos;
            if (tooLong || (stepBack && !stepConfirmed)) {
                long fresh = config.clock().millis();
                if (fresh != now) {
                    now = fresh;
                    stepConfirmed = false;
                    continue;
                }
                if (tooLong) { // retry when a reservation of the same max-wait would fit
                    Outcome.reject(out, free(log, advance(head, lag, size), (int) limit, now, window,
                            MAX_WAIT_MILLIS), newest(log, head, size, base, window, now),
                            Math.max(1, waitMillis - maxWaitNanos / 1_000_000L), limit);
                    return REJECTED;
                }
                stepConfirmed = true;
                continue;
            }
            int left = (int) (limit - permits);
            int remaining = left == 0 ? 0 : free(log, advance(head, permits + lag, size), left, now, window,
                    MAX_WAIT_MILLIS);
            long claim = entry(stored(at, base), tagOfPosition(head), permits);
            if (LONGS.compareAndSet(log, FIRST + index(head), first, claim)) {
                complete(log, head, claim, size);
                Outcome.allow(out, remaining, at + window, limit);
                Outcome.stamp(out, at);
                return waitMillis * 1_000_000L;
            }
        }
    }

    // ----- refunds -----

    @Override
    public boolean takesSeveral() {
        return true;
    }

    /**
     * Gives back the permits of a call admitted at {@code stamp} (its recorded time, {@link Outcome#STAMP}): for
     * each, the oldest entry that counts, if it is not newer than the call, is moved out of the window (one CAS).
     * Which entry goes does not matter for the count, and an entry no newer than the refunded one counts in no
     * later window where the refunded one would not have: so the log never counts fewer than the calls that
     * really happened. Permits that left the window find no such entry and give nothing back. A reservation still
     * ahead frees one of the entries of its time from that time on instead (an older entry counts now, when the
     * reservation did not: moving it out would be one permit too many).
     */
    @Override
    public void refund(Bucket bucket, LimitConfig config, long permits, long stamp) {
        long window = config.windowMillis();
        long now = config.clock().millis();
        long[] log = ((LogBucket) bucket).log();
        long base = log[BASE];
        if (stamp <= now - window || permits > log.length - FIRST) {
            return; // left the window: nothing to give back
        }
        for (long i = 0; i < permits; i++) {
            if (stamp > now) {
                freeReservation(log, base, stamp, window);
            } else {
                expireOldest(log, base, now, window, stamp);
            }
        }
    }

    /** Frees one entry at {@code time} (a reservation ahead, the newest) from that time on, in place. */
    private static void freeReservation(long[] log, long base, long time, long window) {
        long stored = stored(time - window, base);
        if (stored <= 0) {
            return;
        }
        int size = log.length - FIRST;
        for (;;) {
            long position = headOf(log);
            long e = 0;
            for (int k = 0; k < size; k++) {
                position = previous(position, size);
                e = entryAt(log, position);
                long at = timeOf(e, base);
                if (at <= time || !isWrittenFor(e, position)) {
                    break; // sorted: no entry of that time further back
                }
            }
            if (isMarker(e) || !isWrittenFor(e, position) || timeOf(e, base) != time) {
                return;
            }
            if (LONGS.compareAndSet(log, FIRST + index(position), e, entry(stored, tagOf(e), permitsOf(e)))) {
                return;
            }
        }
    }

    /** Moves the oldest entry that counts out of the window, if it is not newer than {@code notAfter}. */
    private static void expireOldest(long[] log, long base, long now, long window, long notAfter) {
        long stored = stored(now - window, base);
        if (stored <= 0) {
            return;
        }
        int size = log.length - FIRST;
        for (;;) {
            long head = headOf(log);
            long first = entryAt(log, head);
            if (isMarker(first)) {
                return; // retired or moved: the permits stay spent
            }
            // the whole ring, not only the last `limit` positions: after a lower limit, older entries count too
            long claimed = isWrittenFor(first, head) ? Math.max(1, permitsOf(first)) : 0; // a claim in progress
            int count = (int) (size - claimed);
            if (count <= 0) {
                return;
            }
            long from = advance(head, claimed, size);
            int k = free(log, from, count, now, window, MAX_WAIT_MILLIS);
            if (k >= count) {
                if (headOf(log) != head) {
                    continue; // read against a head that moved on (maybe by laps): look again
                }
                return; // nothing counts any more
            }
            long position = advance(from, k, size);
            long e = entryAt(log, position);
            if (isMarker(e)) {
                return;
            }
            if (isWrittenFor(e, position)) {
                continue; // claimed meanwhile: look again
            }
            long time = timeOf(e, base);
            if (gone(time, now, window, MAX_WAIT_MILLIS)) {
                continue; // moved out meanwhile (for another refund): look again
            }
            if (!oldest(log, position, size, base, now, window)) {
                continue; // found against a head that moved on: not the oldest of the log as it is now
            }
            if (time > notAfter) {
                return; // newer than the refunded call: nothing that old counts any more
            }
            if (LONGS.compareAndSet(log, FIRST + index(position), e, entry(stored, tagOf(e), permitsOf(e)))) {
                return;
            }
        }
    }

    /**
     * True if the entry at {@code position} is the oldest that counts: {@code position} is within the lap ahead
     * of the head as it is now, and it is the head or the entry before it counts no more (the log is sorted, and an
     * entry that stopped counting never counts again, so all those before do not either).
     */
    private static boolean oldest(long[] log, long position, int size, long base, long now, long window) {
        long head = headOf(log);
        long ahead = sequence(position, size) - sequence(head, size);
        if (ahead < 0 || ahead >= size) {
            return false;
        }
        if (ahead == 0) {
            return true;
        }
        long before = previous(position, size);
        long e = entryAt(log, before);
        return !isMarker(e) && (isWrittenFor(e, before) || gone(timeOf(e, base), now, window, MAX_WAIT_MILLIS));
    }

    private static long sequence(long position, int size) {
        return (position >>> IDX_BITS) * size + index(position);
    }

    // ----- reads -----

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        long window = config.windowMillis();
        long limit = config.limit();
        long now = config.clock().millis();
        long[] log = ((LogBucket) bucket).log();
        int size = log.length - FIRST;
        long base = log[BASE];
        long head = headOf(log);
        long first = entryAt(log, head);
        if (isMarker(first)) {
            Outcome.allow(out, limit, now, limit); // retired, or being moved: reads as a fresh bucket
            return limit;
        }
        long claimed = 0;
        long newest;
        if (isWrittenFor(first, head)) { // a claim in progress: the newest entries
            claimed = Math.max(1, permitsOf(first));
            newest = timeOf(first, base);
        } else {
            newest = timeOf(entryAt(log, previous(head, size)), base);
        }
        long counted = Math.min(limit, size); // a higher limit than the ring holds: the rest is free
        int count = (int) (counted - claimed);
        long from = count <= 0 ? head : advance(head, claimed + size - counted, size);
        int free = free(log, from, count, now, window, MAX_WAIT_MILLIS);
        long remaining = Math.max(0, free + (limit - counted));
        long reset = gone(newest, now, window, MAX_WAIT_MILLIS) ? now : newest + window;
        if (remaining == 0) { // the next permit comes when the oldest entry that counts leaves the window
            long oldest = count <= free ? Long.MIN_VALUE : timeOf(entryAt(log, advance(from, free, size)), base);
            long retry = gone(oldest, now, window, MAX_WAIT_MILLIS) ? window : oldest + window - now;
            Outcome.reject(out, 0, reset, retry, limit);
            return 0;
        }
        Outcome.allow(out, remaining, reset, limit);
        return remaining;
    }

    /** A key without state has its whole budget: nothing to read, nothing to allocate (no ring for a read). */
    @Override
    public long peekFresh(LimitConfig config, long[] out) {
        Outcome.allow(out, config.limit(), config.clock().millis(), config.limit());
        return config.limit();
    }

    /**
     * True if nothing in the log counts: its newest entry (read before the clock, so a stale reading never takes a
     * live log for an idle one) has left the window or is a step back's leftover. A log being moved is not idle.
     */
    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        long[] log = ((LogBucket) bucket).log();
        int size = log.length - FIRST;
        long head = headOf(log);
        long first = entryAt(log, head);
        if (isMarker(first)) {
            return first == RETIRED;
        }
        long newest = isWrittenFor(first, head) ? first : entryAt(log, previous(head, size));
        return idle(newest, log[BASE], config);
    }

    private static boolean idle(long newest, long base, LimitConfig config) {
        return gone(timeOf(newest, base), config.clock().millis(), config.windowMillis(), MAX_WAIT_MILLIS);
    }

    /**
     * CASes the entry at the head of an idle log to {@link #RETIRED}: the entry the next claim must CAS, so a check
     * racing this either claims first (the log is not idle: false) or finds the marker. Idempotent.
     */
    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        LogBucket b = (LogBucket) bucket;
        for (;;) {
            long[] log = b.log();
            int size = log.length - FIRST;
            long head = headOf(log);
            long first = entryAt(log, head);
            if (isMarker(first)) {
                return first == RETIRED; // or being moved: live
            }
            if (isWrittenFor(first, head)) {
                return false; // a claim in progress: not idle
            }
            if (!isPreviousFor(first, head)) {
                continue;
            }
            if (!idle(entryAt(log, previous(head, size)), log[BASE], config)) {
                return false;
            }
            if (LONGS.compareAndSet(log, FIRST + index(head), first, RETIRED)) {
                return true;
            }
        }
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        long[] log = ((LogBucket) bucket).log();
        return entryAt(log, headOf(log)) == RETIRED;
    }

    // ----- moving to a new ring -----

    /**
     * Moves the log into a ring of {@code max(size, limit)} entries based at {@code now} (a higher limit, or a clock
     * far from the base): freezes the old ring at its head (after helping a claim in progress there), copies its
     * entries in order, swaps the copy in; a thread that loses the swap drops its copy. False if the log is retired.
     */
    private static boolean move(LogBucket bucket, long[] log, LimitConfig config, long now) {
        int size = log.length - FIRST;
        for (;;) {
            if (bucket.log() != log) {
                return true; // moved by another thread
            }
            long head = headOf(log);
            long first = entryAt(log, head);
            if (first == RETIRED) {
                return false;
            }
            if (!isFrozen(first)) {
                if (isWrittenFor(first, head)) {
                    complete(log, head, first, size);
                    continue;
                }
                if (!isPreviousFor(first, head)
                        || !LONGS.compareAndSet(log, FIRST + index(head), first, (first & ~N_MASK) | N_FROZEN)) {
                    continue;
                }
            }
            int limit = (int) Math.min(Math.max(size, config.limit()), MAX_LIMIT);
            bucket.swap(log, copy(log, head, size, Math.max(size, limit), now));
            return true;
        }
    }

    /**
     * A ring of {@code newSize >= size} entries based at {@code now}, holding the entries of {@code log} (frozen at
     * {@code head}) in order as lap {@code lap + 2} of the head (so no refund stamp of the old ring is a position of
     * the new one); entries too old for the new base are dropped (they are years old: they do not count).
     */
    private static long[] copy(long[] log, long head, int size, int newSize, long now) {
        long oldBase = log[BASE];
        long lap = (head >>> IDX_BITS) + 2;
        long[] next = new long[FIRST + newSize];
        next[BASE] = now;
        long position = head;
        for (int j = size - 1; j >= 0; j--) {
            position = previous(position, size);
            long time = storedTimeOf(entryAt(log, position), oldBase); // the oldest is the frozen head's
            long stored = time == Long.MIN_VALUE ? 0 : Math.max(0, stored(time, now));
            next[FIRST + j] = entry(stored, lap & TAG_MASK, 1);
        }
        for (int j = size; j < newSize; j++) {
            next[FIRST + j] = entry(0, (lap - 1) & TAG_MASK, 0);
        }
        next[HEAD] = newSize == size ? (lap + 1) << IDX_BITS : lap << IDX_BITS | size;
        return next;
    }

    @Override
    public String toString() {
        return NAME;
    }
}
