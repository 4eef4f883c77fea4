package dev.limiter.it.app;

import java.util.concurrent.Semaphore;

/**
 * A fixed pool of workers shared by every request that asks for one: a call waits in a fair queue for a worker,
 * then holds it for its time, so latency grows with the calls beyond the pool's size (a database pool, a thread
 * pool downstream). One pool per size.
 */
final class Workers {

    private static final Semaphore[] POOLS = new Semaphore[65];

    private Workers() {
    }

    /** Holds one of {@code size} workers (1 to 64) for {@code millis}. */
    static void run(int size, long millis) {
        Semaphore pool = pool(size);
        pool.acquireUninterruptibly();
        try {
            Pause.millis(millis);
        } finally {
            pool.release();
        }
    }

    private static synchronized Semaphore pool(int size) {
        if (size < 1 || size >= POOLS.length) {
            throw new IllegalArgumentException("workers must be from 1 to 64: " + size);
        }
        if (POOLS[size] == null) {
            POOLS[size] = new Semaphore(size, true);
        }
        return POOLS[size];
    }
}
