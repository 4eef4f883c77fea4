package dev.limiter.redis;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/** Several limiters (as several JVMs) checking at once, with threads released together by a latch. */
final class Contention {

    private Contention() {
    }

    /** Runs {@code attempts} checks on {@code key} per thread, {@code threads} threads per limiter; returns admitted. */
    static int hammer(List<KeyedLimiter> limiters, int threads, int attempts, String key) throws InterruptedException {
        return hammer(limiters, threads, attempts, i -> key);
    }

    static int hammer(List<KeyedLimiter> limiters, int threads, int attempts, IntFunction<String> keyOf)
            throws InterruptedException {
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (KeyedLimiter limiter : limiters) {
            for (int t = 0; t < threads; t++) {
                Thread thread = new Thread(() -> {
                    long[] out = Outcome.newArray();
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < attempts; i++) {
                        if (limiter.tryAcquire(keyOf.apply(i), out)) {
                            admitted.incrementAndGet();
                        }
                    }
                });
                thread.start();
                all.add(thread);
            }
        }
        start.countDown();
        for (Thread thread : all) {
            thread.join();
        }
        return admitted.get();
    }
}
