package methodtest;

import java.util.concurrent.CountDownLatch;

/** Concurrency-limited methods: one that blocks until released, one that throws, and nested calls. */
public class Worker {

    public void hold(CountDownLatch entered, CountDownLatch release) throws InterruptedException {
        entered.countDown();
        release.await();
    }

    public void fail(String why) {
        throw new IllegalStateException(why);
    }

    public int outer(int depth) {
        return depth <= 0 ? 0 : 1 + inner(depth - 1);
    }

    public int inner(int depth) {
        return depth <= 0 ? 0 : 1 + outer(depth - 1);
    }
}
