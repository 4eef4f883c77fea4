package dev.limiter.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many threads pausing and checking keys at once: the longest pause always wins, a check never sees a pause
 * shorter than one already in force, and the bound holds.
 */
class KeyPausesContentionTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 20_000;

    @Test
    void theLongestPauseWinsWhateverTheInterleaving() throws Exception {
        KeyPauses pauses = new KeyPauses();
        CountDownLatch start = new CountDownLatch(1);
        AtomicLong violations = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long highest = 0;
                for (int i = 1; i <= ROUNDS; i++) {
                    long end = (long) i * THREADS + id; // every thread raises the end of the same key
                    pauses.pause("shared", end, 0);
                    highest = end;
                    if (pauses.nanosLeft("shared", 0) < highest) {
                        violations.incrementAndGet(); // a pause in force was shortened
                    }
                    pauses.pause("k" + id + "-" + (i % 100), 1_000_000, 0);
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(violations.get()).isZero();
        assertThat(pauses.nanosLeft("shared", 0)).isEqualTo((long) ROUNDS * THREADS + THREADS - 1);
        assertThat(pauses.size()).isEqualTo(1 + THREADS * 100);
        assertThat(pauses.refused()).isZero();
    }
}
