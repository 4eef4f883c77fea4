package dev.limiter.redis;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads checking continuously over 16 keys while a fault is injected, recording the slowest check and anything
 * a check throws (a check must never throw: a failure applies on-failure), until closed.
 */
final class CheckLoad implements AutoCloseable {

    final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicLong slowestNanos = new AtomicLong();
    final AtomicLong checks = new AtomicLong();
    final AtomicLong thrown = new AtomicLong();
    final List<Thread> threads = new ArrayList<>();
    private final SchedulingStalls stalls = new SchedulingStalls();

    CheckLoad(List<KeyedLimiter> limiters, int threadsEach) {
        for (KeyedLimiter limiter : limiters) {
            for (int i = 0; i < threadsEach; i++) {
                Thread t = new Thread(() -> {
                    long[] out = Outcome.newArray();
                    int n = 0;
                    while (running.get()) {
                        long start = System.nanoTime();
                        try {
                            limiter.tryAcquire("k" + (n++ % 16), out);
                        } catch (RuntimeException e) {
                            thrown.incrementAndGet();
                        }
                        slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                        checks.incrementAndGet();
                    }
                });
                t.start();
                threads.add(t);
            }
        }
    }

    void resetSlowest() {
        slowestNanos.set(0);
        stalls.reset();
    }

    long slowestMillis() {
        return slowestNanos.get() / 1_000_000;
    }

    /**
     * The most a check may take since the last {@link #resetSlowest}: {@code boundMillis} plus the longest stall
     * of this JVM's threads meanwhile ({@link SchedulingStalls}), which a loaded machine adds to any wall-clock
     * measurement and the store cannot help.
     */
    long allowedMillis(long boundMillis) {
        return boundMillis + stalls.worstMillis();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join();
        }
        stalls.close();
    }
}
