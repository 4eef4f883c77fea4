package dev.limiter.agent.decision;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.rules.RuleStats;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The permits one decision reserved for a later time, taken out of its thread's {@link Call} for a call delayed
 * without a thread (an asynchronous client call, sent by a scheduler when its time comes). Ended exactly once:
 * {@link #sent} when the call goes out, {@link #refund} if it is cancelled first (the next callers get those
 * times back); either way the rules' waiter slots are given back.
 */
public final class Reservations extends AtomicBoolean {

    private static final long serialVersionUID = 1L;

    private final transient KeyedLimiter[] limiters;
    private final transient String[] keys;
    private final long[] permits;
    private final long[] stamps;
    private final transient RuleStats[] stats;

    Reservations(KeyedLimiter[] limiters, String[] keys, long[] permits, long[] stamps, RuleStats[] stats, int count) {
        this.limiters = Arrays.copyOf(limiters, count);
        this.keys = Arrays.copyOf(keys, count);
        this.permits = Arrays.copyOf(permits, count);
        this.stamps = Arrays.copyOf(stamps, count);
        this.stats = Arrays.copyOf(stats, count);
    }

    /** The call is sent: the reservations are used; the waiter slots go back. Once; never throws. */
    public void sent() {
        if (compareAndSet(false, true)) {
            leave();
        }
    }

    /** The call will not be sent: the reserved permits and the waiter slots go back. Once; never throws. */
    public void refund() {
        if (compareAndSet(false, true)) {
            for (int i = 0; i < limiters.length; i++) {
                try {
                    limiters[i].refund(keys[i], permits[i], stamps[i]);
                } catch (Throwable ignored) {
                    // a failing refund must not stop the others; the limiter counts its own errors
                }
            }
            leave();
        }
    }

    private void leave() {
        for (RuleStats each : stats) {
            each.leaveWaiting();
        }
    }
}
