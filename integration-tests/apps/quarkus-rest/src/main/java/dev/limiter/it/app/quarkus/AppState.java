package dev.limiter.it.app.quarkus;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** What the tests ask the application: how often resource methods ran, and the gates of held requests. */
final class AppState {

    private static final AtomicLong HANDLED = new AtomicLong();
    private static final Map<String, AtomicLong> ARRIVALS = new ConcurrentHashMap<>();
    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

    private AppState() {
    }

    static String handled(String answer) {
        HANDLED.incrementAndGet();
        return answer;
    }

    static long handled() {
        return HANDLED.get();
    }

    static void arrived(String gate) {
        ARRIVALS.computeIfAbsent(gate, g -> new AtomicLong()).incrementAndGet();
    }

    static long arrivals(String gate) {
        AtomicLong count = ARRIVALS.get(gate);
        return count == null ? 0 : count.get();
    }

    static void await(String gate) throws InterruptedException {
        if (!latch(gate).await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("gate " + gate + " never opened");
        }
    }

    static void release(String gate) {
        latch(gate).countDown();
    }

    private static CountDownLatch latch(String gate) {
        return GATES.computeIfAbsent(gate, g -> new CountDownLatch(1));
    }
}
