package dev.limiter.agent.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SlotPoolTest {

    /** A pooled buffer that knows whether a thread holds it. */
    private static final class Buffer {
        final AtomicBoolean held = new AtomicBoolean();
    }

    @Test
    void anEmptyPoolAnswersNullAndAGivenBufferComesBack() {
        SlotPool<Buffer> pool = new SlotPool<>();
        assertNull(pool.take());
        Buffer buffer = new Buffer();
        pool.give(buffer);
        assertEquals(1, pool.size());
        assertSame(buffer, pool.take());
        assertNull(pool.take());
    }

    @Test
    void aFullPoolDropsWhatItIsGiven() {
        SlotPool<Buffer> pool = new SlotPool<>();
        for (int i = 0; i < SlotPool.SLOTS + 10; i++) {
            pool.give(new Buffer());
        }
        assertEquals(SlotPool.SLOTS, pool.size());
        for (int i = 0; i < SlotPool.SLOTS; i++) {
            pool.take();
        }
        assertEquals(0, pool.size());
    }

    /** Threads take, hold and give back: no buffer is ever held by two at once, and none is lost or made twice. */
    @Test
    void noBufferIsHandedToTwoThreadsAtOnce() throws Exception {
        SlotPool<Buffer> pool = new SlotPool<>();
        int threads = 16;
        int rounds = 20_000;
        AtomicInteger made = new AtomicInteger();
        AtomicInteger doubleHandouts = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int r = 0; r < rounds; r++) {
                    Buffer buffer = pool.take();
                    if (buffer == null) {
                        buffer = new Buffer();
                        made.incrementAndGet();
                    }
                    if (!buffer.held.compareAndSet(false, true)) {
                        doubleHandouts.incrementAndGet();
                    }
                    Thread.yield();
                    buffer.held.set(false);
                    pool.give(buffer);
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(0, doubleHandouts.get());
        // a scan can pass a slot just before a buffer lands in it, so a few more than 16 may be made; none is lost
        assertEquals(Math.min(made.get(), SlotPool.SLOTS), pool.size(), "each buffer made is back in the pool");
    }
}
