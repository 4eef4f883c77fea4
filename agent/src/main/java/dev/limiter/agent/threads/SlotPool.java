package dev.limiter.agent.threads;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Buffers kept for reuse by whichever thread asks next: a request's buffers, when its thread lives for that one
 * request (a virtual thread) or when the buffers outlive the thread's part in it. Their number stays near the number
 * of requests in flight, however many threads the server starts.
 *
 * <p>Lock-free and bounded: {@value #SLOTS} slots, each taken with {@code getAndSet(null)} and filled with
 * {@code compareAndSet(null, ...)}, scanned from a slot chosen by the thread id, so that threads spread over the
 * slots and a thread that asks again tends to get its own buffers back. A full pool drops what it is given (the
 * garbage collector takes it); an empty one answers null.
 */
public final class SlotPool<T> {

    public static final int SLOTS = 64;

    private final AtomicReferenceArray<T> slots = new AtomicReferenceArray<>(SLOTS);

    /** Pooled buffers, or null if none is free. */
    public T take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (slots.get(slot) != null) {
                T taken = slots.getAndSet(slot, null);
                if (taken != null) {
                    return taken;
                }
            }
        }
        return null;
    }

    /** Keeps {@code buffers} (which must hold no request state any more) for another thread, if a slot is free. */
    public void give(T buffers) {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, buffers)) {
                return;
            }
        }
    }

    /** Buffers in the pool now (tests). */
    public int size() {
        int count = 0;
        for (int i = 0; i < SLOTS; i++) {
            count += slots.get(i) == null ? 0 : 1;
        }
        return count;
    }

    @SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+; the same number
    private static int start() {
        return (int) Thread.currentThread().getId();
    }
}
