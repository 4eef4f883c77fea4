package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.grpc.GrpcEntryPoint;
import dev.limiter.agent.webflux.WebfluxEntryPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Work waiting for the first weave of a named class runs once, then, on the weaving thread; or at once after it. */
class FirstWeavesTest {

    private static final EntryTarget[] WEBFLUX = {WebfluxEntryPoint.HANDLER};
    private static final EntryTarget[] GRPC = {GrpcEntryPoint.UNARY, GrpcEntryPoint.STREAMING};

    @Test
    void workWaitsForAClassOfItsTargetsAndRunsOnceOnTheWeavingThread() {
        FirstWeaves weaves = new FirstWeaves();
        List<String> ran = new ArrayList<>();
        weaves.whenWoven(WEBFLUX, () -> ran.add("webflux on " + Thread.currentThread().getName()));
        weaves.whenWoven(GRPC, () -> ran.add("grpc"));
        assertThat(ran).isEmpty();

        weaves.woven(WeaveTarget.bitsOf(new EntryTarget[] {GrpcEntryPoint.STREAMING}));
        assertThat(ran).containsExactly("grpc");
        weaves.woven(WeaveTarget.bitsOf(GRPC));
        assertThat(ran).as("once").containsExactly("grpc");

        weaves.woven(WeaveTarget.bitsOf(WEBFLUX));
        assertThat(ran).containsExactly("grpc", "webflux on " + Thread.currentThread().getName());
    }

    @Test
    void workForAClassWovenAlreadyRunsAtOnce() {
        FirstWeaves weaves = new FirstWeaves();
        weaves.woven(WeaveTarget.bitsOf(WEBFLUX));
        AtomicInteger ran = new AtomicInteger();
        weaves.whenWoven(WEBFLUX, ran::incrementAndGet);
        assertThat(ran).hasValue(1);
        weaves.whenWoven(GRPC, ran::incrementAndGet);
        assertThat(ran).as("gRPC's classes are not woven").hasValue(1);
    }

    @Test
    void registeredWhileManyThreadsWeaveItRunsExactlyOnce() throws Exception {
        for (int round = 0; round < 200; round++) {
            FirstWeaves weaves = new FirstWeaves();
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread weaving = new Thread(() -> {
                    await(start);
                    weaves.woven(WeaveTarget.bitsOf(GRPC));
                });
                weaving.start();
                threads.add(weaving);
            }
            Thread registering = new Thread(() -> {
                await(start);
                weaves.whenWoven(GRPC, ran::incrementAndGet);
            });
            registering.start();
            threads.add(registering);
            start.countDown();
            for (Thread thread : threads) {
                thread.join(10_000);
            }
            assertThat(ran).as("round %d", round).hasValue(1);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
