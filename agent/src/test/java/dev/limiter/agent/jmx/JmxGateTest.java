package dev.limiter.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The default registration waits for the first request and then lets the container finish that response: it
 * must not start the moment the gate opens.
 */
class JmxGateTest {

    @Test
    void anOpenedGateStillWaitsTheSettleTime() throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        gate.countDown();

        long started = System.nanoTime();
        JmxGate.await(gate);
        long waitedMillis = (System.nanoTime() - started) / 1_000_000;

        assertThat(waitedMillis).isGreaterThanOrEqualTo(JmxGate.SETTLE_MILLIS);
    }
}
