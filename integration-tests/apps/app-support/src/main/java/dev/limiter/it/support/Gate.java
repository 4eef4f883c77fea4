package dev.limiter.it.support;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A named latch that slow calls wait on until the test opens it. It makes "N calls are in flight at once" a fact
 * the test can observe ({@link #arrived()}) instead of a timing guess on a busy 2-core machine. Shared by the
 * servlet and the JAX-RS test apps, javax and jakarta alike (JDK types only).
 */
public final class Gate {

    private static final ConcurrentMap<String, Gate> GATES = new ConcurrentHashMap<>();

    private final CountDownLatch open = new CountDownLatch(1);
    private final AtomicInteger arrived = new AtomicInteger();

    private Gate() {
    }

    public static Gate named(String name) {
        return GATES.computeIfAbsent(name, n -> new Gate());
    }

    /** Waits for the gate to open; false if it stayed shut for the whole timeout. */
    public boolean pass(long timeoutMillis) {
        arrived.incrementAndGet();
        try {
            return open.await(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public int arrived() {
        return arrived.get();
    }

    public void open() {
        open.countDown();
    }
}
