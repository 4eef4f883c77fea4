package dev.limiter.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The space-saving summary: exact while keys fit, bounded and still finding the heavy hitter when they do not. */
class TopKeysTest {

    @Test
    void countsExactlyWhileTheKeysFitTheSlots() {
        TopKeys top = new TopKeys(3);
        for (int i = 0; i < 5; i++) {
            top.offer("a");
        }
        top.offer("b");
        top.offer("c");
        top.offer("c");
        top.offer(null);

        assertThat(top.snapshot()).extracting(KeyCount::toString).containsExactly("a=5", "c=2", "b=1");
    }

    @Test
    void staysBoundedAndKeepsTheHeavyHitterAmongManyDistinctKeys() {
        TopKeys top = new TopKeys(TopKeys.DEFAULT_SLOTS);
        for (int i = 0; i < 10_000; i++) {
            top.offer("noise-" + i);
            if (i % 10 == 0) {
                top.offer("attacker");
            }
        }

        KeyCount[] snapshot = top.snapshot();

        assertThat(snapshot).hasSize(TopKeys.DEFAULT_SLOTS);
        assertThat(snapshot[0].getKey()).isEqualTo("attacker");
        // space-saving: the count never underestimates, and overestimates by at most the error
        assertThat(snapshot[0].getCount()).isGreaterThanOrEqualTo(1_000);
        assertThat(snapshot[0].getCount() - snapshot[0].getError()).isLessThanOrEqualTo(1_000);
        long total = 0;
        for (KeyCount entry : snapshot) {
            total += entry.getCount();
        }
        assertThat(total).as("space-saving counts sum to the samples").isEqualTo(11_000);
    }

    @Test
    void aNewcomerInheritsTheEvictedCountAsItsError() {
        TopKeys top = new TopKeys(2);
        top.offer("a");
        top.offer("a");
        top.offer("b");
        top.offer("c"); // evicts b (count 1)

        assertThat(top.snapshot()).extracting(KeyCount::toString).containsExactly("a=2", "c=2 (±1)");
    }

    @Test
    void underContentionEverySampleIsCountedOrDropped() throws Exception {
        TopKeys top = new TopKeys(TopKeys.DEFAULT_SLOTS);
        int threads = 4;
        int perThread = 50_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String key = "k" + t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    top.offer(key);
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }

        long counted = 0;
        for (KeyCount entry : top.snapshot()) {
            counted += entry.getCount();
        }
        assertThat(counted + top.dropped()).isEqualTo((long) threads * perThread);

        top.clear();
        assertThat(top.snapshot()).isEmpty();
        assertThat(top.dropped()).isZero();
    }
}
