package dev.limiter.agent.helidon;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@link HelidonCall}s for requests in flight: borrowed at the woven entry, given back when the decision is made
 * (or, for a request holding permits, when the woven method exits), so their number stays near the number of
 * requests deciding or holding at once, however many virtual threads Helidon starts.
 *
 * <p>Lock-free and bounded: {@value #SLOTS} slots, each taken with {@code getAndSet(null)} and filled with
 * {@code compareAndSet(null, ...)}, scanned from a slot chosen by the thread id, so a kept-alive connection's
 * thread tends to get the same call back (and its peer text with it). A full pool drops the call (the garbage
 * collector takes it); an empty one makes a new one.
 */
final class CallPool {

    static final int SLOTS = 64;

    private final AtomicReferenceArray<HelidonCall> slots = new AtomicReferenceArray<>(SLOTS);
    private final boolean parks;

    /** {@code parks}: whether its calls may wait for a reserved permit ({@link HelidonCall}). */
    CallPool(boolean parks) {
        this.parks = parks;
    }

    /** A pooled call, or a new one if none is free. */
    HelidonCall take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (slots.get(slot) != null) {
                HelidonCall taken = slots.getAndSet(slot, null);
                if (taken != null) {
                    return taken;
                }
            }
        }
        return new HelidonCall(parks, this);
    }

    /** Keeps {@code call} (which holds no request and no permit any more) for another request, if a slot is free. */
    void give(HelidonCall call) {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, call)) {
                return;
            }
        }
    }

    @SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+; the same number
    private static int start() {
        return (int) Thread.currentThread().getId();
    }
}
