package dev.limiter.agent.decision;

import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import java.util.concurrent.locks.LockSupport;

/**
 * Parks the calling thread for a reserved permit's wait, and tells which threads may be parked at all.
 * {@link LockSupport#parkNanos} holds no monitor, so a virtual thread unmounts from its carrier while it waits (no
 * pinning) and a platform thread costs only its stack; nothing spins. Spurious wake-ups park again for what is
 * left.
 *
 * <p>An event-loop thread serves many connections: parking it would stall all of them. Such threads are known by
 * their class: Reactor's {@code NonBlocking} marker (Reactor Netty's event loops, Reactor's parallel schedulers)
 * or Netty's {@code FastThreadLocalThread} (Netty's and Vert.x's event loops). A rule that waits decides for them
 * as if it rejected at once ({@link Decider}), and counts it.
 */
public final class Waiting {

    private static final String NON_BLOCKING = "reactor.core.scheduler.NonBlocking";
    private static final String NETTY_THREAD = "io.netty.util.concurrent.FastThreadLocalThread";

    /** Per thread class: may its threads be parked? Computed once per class, by name only (no library types). */
    private static final ClassValue<Boolean> PARKABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return !eventLoop(type);
        }
    };

    private Waiting() {
    }

    /** True unless the current thread is an event loop (or another thread that must never block). */
    public static boolean mayPark() {
        return PARKABLE.get(Thread.currentThread().getClass());
    }

    /** True if {@code type} is or extends Netty's thread class, or implements Reactor's non-blocking marker. */
    static boolean eventLoop(Class<?> type) {
        for (Class<?> c = type; c != null && c != Thread.class && c != Object.class; c = c.getSuperclass()) {
            if (c.getName().equals(NETTY_THREAD) || marked(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean marked(Class<?> type) {
        for (Class<?> marker : type.getInterfaces()) {
            if (marker.getName().equals(NON_BLOCKING) || marked(marker)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits {@code nanos}; returns true when they have passed, false at once if the thread is or becomes
     * interrupted (the flag is then cleared: the caller rejects the call and sets it again).
     */
    public static boolean park(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (;;) {
            if (Thread.interrupted()) {
                return false;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            LockSupport.parkNanos(Waiting.class, left);
        }
    }

    /**
     * After an admitting decision: parks for the wait the call's {@code on-limit: wait} rules reserved, if any, and
     * forgets the reservations. If the thread is interrupted meanwhile (the server is stopping), the reserved
     * permits and those held above {@code base} go back, the interrupt flag is set again, the call's outcome says
     * "retry now", and the rule that made it wait is returned: the caller rejects the call in its name. Null when
     * the call may go on.
     */
    public static Rule awaitReserved(Call call, int base) {
        if (call.waitNanos > 0 && !park(call.waitNanos)) {
            Rule waited = call.waitRule;
            call.refundReservations();
            call.permits.releaseTo(base);
            Thread.currentThread().interrupt();
            Outcome.reject(call.out, 0, System.currentTimeMillis(), 0, 0);
            return waited;
        }
        call.clearReservations();
        return null;
    }
}
