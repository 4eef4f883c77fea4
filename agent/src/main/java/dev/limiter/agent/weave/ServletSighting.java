package dev.limiter.agent.weave;

import java.util.concurrent.CountDownLatch;

/**
 * Whether the transformer has woven a servlet or filter yet: what the first request's warm-up waits for, so that
 * stacks without a servlet container (WebFlux on Reactor Netty, gRPC, Quarkus) never spend its CPU while they
 * start, and servlet containers get it as soon as their first servlet or filter class loads, before they serve.
 */
public final class ServletSighting {

    private final CountDownLatch woven = new CountDownLatch(1);

    /** A servlet or filter class was woven (the transformer, on the loading thread; a no-op after the first). */
    void sight() {
        woven.countDown();
    }

    /** True once a servlet or filter class was woven. */
    public boolean seen() {
        return woven.getCount() == 0;
    }

    /** Waits until a servlet or filter class is woven, for ever if none ever is (call on a daemon thread). */
    public void await() throws InterruptedException {
        woven.await();
    }
}
