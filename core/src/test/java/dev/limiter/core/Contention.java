package dev.limiter.core;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the same task on many threads released together by one latch, and sums what they return: the
 * Caffeine-style harness the contention tests use to assert exact totals.
 *
 * <p>Virtual threads are created reflectively ({@code Executors.newVirtualThreadPerTaskExecutor}) because core is
 * compiled for Java 17; {@link #virtualThreadsAvailable()} lets a test skip itself with an assumption on 17.
 */
public final class Contention {

    /** One thread's share of the work; returns what it counted (e.g. its admissions). */
    @FunctionalInterface
    public interface Task {
        long run(int thread) throws Exception;
    }

    private Contention() {
    }

    /** Runs {@code task} on {@code threads} platform threads started together; returns the sum. */
    public static long platform(int threads, Task task) throws Exception {
        return run(Executors.newFixedThreadPool(threads), threads, task);
    }

    /** Runs {@code task} on {@code threads} virtual threads started together; returns the sum. */
    public static long virtual(int threads, Task task) throws Exception {
        Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        return run((ExecutorService) factory.invoke(null), threads, task);
    }

    public static boolean virtualThreadsAvailable() {
        try {
            Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static long run(ExecutorService pool, int threads, Task task) throws Exception {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        AtomicLong total = new AtomicLong();
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    start.await();
                    total.addAndGet(task.run(id));
                    return null;
                }));
            }
            ready.await(30, TimeUnit.SECONDS);
            start.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
            return total.get();
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
