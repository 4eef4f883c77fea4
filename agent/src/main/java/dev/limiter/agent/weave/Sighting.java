package dev.limiter.agent.weave;

import java.util.concurrent.CountDownLatch;

/**
 * One thing the transformer can see happen once, for a warm-up on the agent's thread to wait for, so that work
 * useful only to weaving is never spent in a JVM that weaves nothing:
 * <ul>
 *   <li>{@link LimiterTransformer#weaving()}: the first sign that weaving is coming (a class loader that sees a
 *       woven API, a class of a library with a woven class, a class that may carry {@code @Limit}); the weaver's
 *       warm-up waits for it;</li>
 *   <li>{@link LimiterTransformer#servlets()}: the first servlet or filter class woven; the first request's
 *       warm-up waits for it, so stacks without a servlet container (WebFlux on Reactor Netty, gRPC, Quarkus)
 *       never spend its CPU, and servlet containers get it before they serve.</li>
 * </ul>
 */
public final class Sighting {

    private final CountDownLatch seen = new CountDownLatch(1);

    /** It happened (the transformer, on the loading thread; a no-op after the first). */
    void sight() {
        seen.countDown();
    }

    /** True once it happened. */
    public boolean seen() {
        return seen.getCount() == 0;
    }

    /** Waits until it happens, for ever if it never does (call on a daemon thread). */
    public void await() throws InterruptedException {
        seen.await();
    }
}
