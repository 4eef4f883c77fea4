package dev.limiter.agent.servlet;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@link RequestScratch} buffers for threads that live for one request: virtual threads (Java 21+).
 *
 * <p>Why: the buffers hang off the thread's frame and are reused by its next request, so a pool of platform
 * threads allocates them once per thread. A server that starts a virtual thread per request would allocate
 * them (~300 B) on every request instead. Such a thread takes buffers from here when its request starts and
 * gives them back when it ends, so their number stays near the number of requests in flight.
 *
 * <p>Lock-free and bounded: {@value #SLOTS} slots, each taken with {@code getAndSet(null)} and filled with
 * {@code compareAndSet(null, ...)}, scanned from a slot chosen by the thread id so that threads spread over
 * the slots. A full pool drops the buffers (the garbage collector takes them); an empty one makes new ones.
 * On Java 17 no thread is virtual and the pool stays empty.
 */
final class ScratchPool {

    static final int SLOTS = 64;
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private final AtomicReferenceArray<RequestScratch> slots = new AtomicReferenceArray<>(SLOTS);

    /** True if the calling thread is virtual, i.e. will most likely serve this one request only. */
    static boolean oneRequestThread() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable t) {
            return false;
        }
    }

    /** Pooled buffers, or null if none is free. */
    RequestScratch take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (slots.get(slot) != null) {
                RequestScratch taken = slots.getAndSet(slot, null);
                if (taken != null) {
                    return taken;
                }
            }
        }
        return null;
    }

    /** Keeps {@code scratch} (which must hold no request state any more) for another thread, if a slot is free. */
    void give(RequestScratch scratch) {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, scratch)) {
                return;
            }
        }
    }

    /** Buffers in the pool now (tests). */
    int size() {
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

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException java17) {
            return null;
        }
    }
}
