package dev.limiter.core.store;

import dev.limiter.core.JointLimiter;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;

/**
 * Several limits on one key as one decision ("10 per second and 1,000 per hour"): a call is admitted only if every
 * limit admits it, and a call one of them refuses uses no budget of any.
 *
 * <p>Reserve, then refund: the limits are asked in order, each with its own CAS; when one refuses, the permits the
 * earlier ones gave are handed back ({@link KeyedLimiter#refund}) before the decision returns. No lock, no
 * allocation. Between a limit's take and its refund a concurrent call on the same key may find that permit held
 * and be refused by it: that window lasts as long as the later limits' checks (tens of nanoseconds in this JVM),
 * and closes with every permit back where it was, none lost and none created. Asking the limit most likely to
 * refuse first (the rules order them by window, shortest first) keeps refunds rare.
 *
 * <p>The answer is the index of the binding limit, the one the rate-limit headers report: on an admission the
 * limit with the least remaining, on a rejection the refusing one a retry waits longest for (encoded
 * {@code ~index}).
 */
public final class AllOf {

    private AllOf() {
    }

    /**
     * Takes {@code permits} for {@code key} from every one of {@code limiters}, or from none.
     *
     * @param out     filled with the binding limit's outcome (per {@link Outcome})
     * @param scratch a reusable array of {@link Outcome#SIZE}
     * @param stamps  a reusable array with at least {@code limiters.length} entries (each take's
     *                {@link Outcome#STAMP}, for the refunds)
     * @return the binding limit's index if admitted, {@code ~index} of the refusing limit if not ({@link #admitted},
     *         {@link #index})
     */
    public static int tryAcquire(KeyedLimiter[] limiters, String key, long permits, long[] out, long[] scratch,
            long[] stamps) {
        if (limiters[0] instanceof JointLimiter joint) { // a shared store: one atomic step, nothing to refund
            int answer = joint.tryAcquireAll(limiters, key, permits, out);
            if (answer != JointLimiter.NOT_JOINED) {
                return answer;
            }
        }
        int binding = -1;
        for (int i = 0; i < limiters.length; i++) {
            boolean admitted;
            try {
                admitted = limiters[i].tryAcquire(key, permits, scratch);
            } catch (RuntimeException | Error e) {
                refund(limiters, i, key, permits, stamps); // a failing limit takes nothing from the others
                throw e;
            }
            if (!admitted) {
                refund(limiters, i, key, permits, stamps);
                System.arraycopy(scratch, 0, out, 0, Outcome.SIZE);
                return ~longestRefusal(limiters, i, key, permits, out, scratch);
            }
            stamps[i] = scratch[Outcome.STAMP];
            if (binding < 0 || scratch[Outcome.REMAINING] < out[Outcome.REMAINING]) {
                System.arraycopy(scratch, 0, out, 0, Outcome.SIZE);
                binding = i;
            }
        }
        return binding;
    }

    /** True if {@link #tryAcquire}'s answer admits the call. */
    public static boolean admitted(int answer) {
        return answer >= 0;
    }

    /** The binding limit's index in {@link #tryAcquire}'s answer. */
    public static int index(int answer) {
        return answer >= 0 ? answer : ~answer;
    }

    /**
     * The refusing limit a retry must wait for: of {@code limiters[refusing]} and the later limits that would
     * refuse too (read without taking), the one with the longest retry-after, its outcome in {@code out}. Told
     * only "retry in a second" while the hour is spent too, a client would be refused again.
     */
    private static int longestRefusal(KeyedLimiter[] limiters, int refusing, String key, long permits, long[] out,
            long[] scratch) {
        int longest = refusing;
        for (int j = refusing + 1; j < limiters.length; j++) {
            limiters[j].remaining(key, scratch);
            if (scratch[Outcome.REMAINING] < permits
                    && scratch[Outcome.RETRY_AFTER_MILLIS] > out[Outcome.RETRY_AFTER_MILLIS]) {
                System.arraycopy(scratch, 0, out, 0, Outcome.SIZE);
                longest = j;
            }
        }
        return longest;
    }

    /** Hands back what {@code limiters[0..taken)} gave, latest first. */
    private static void refund(KeyedLimiter[] limiters, int taken, String key, long permits, long[] stamps) {
        for (int j = taken - 1; j >= 0; j--) {
            limiters[j].refund(key, permits, stamps[j]);
        }
    }
}
