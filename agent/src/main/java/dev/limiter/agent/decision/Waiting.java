package dev.limiter.agent.method;

import java.util.concurrent.locks.LockSupport;

/**
 * Parks the calling thread for a reserved permit's wait. {@link LockSupport#parkNanos} holds no monitor, so a
 * virtual thread unmounts from its carrier while it waits (no pinning) and a platform thread costs only its stack;
 * nothing spins. Spurious wake-ups park again for what is left.
 */
final class Waiting {

    private Waiting() {
    }

    /**
     * Waits {@code nanos}; returns true when they have passed, false at once if the thread is or becomes
     * interrupted (the flag is then cleared: the caller rejects the call and sets it again).
     */
    static boolean park(long nanos) {
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
}
