package dev.limiter.agent.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision of rules that wait ({@code on-limit: wait}), with real rules on a frozen clock: waits in order,
 * {@code max-waiters} bounding the calls waiting at once (a refused call reserves nothing), fixed windows
 * refunding into the window they reserved, and event-loop threads that never wait.
 */
class WaitDecisionTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private RuleSetHolder holder;
    private final Decider decider = new Decider(new ThrottledLog("dev.limiter.test", 0));

    @AfterEach
    void close() {
        if (holder != null) {
            holder.close();
        }
    }

    private Rule rule(String yaml) throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nrules:\n  - id: r\n" + yaml);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        RuleSet rules = holder.current();
        return rules.rule("r");
    }

    /** A call of an adapter that parks after the decision (as servlet requests and woven methods do). */
    private static class KeyedCall extends Call {
        @Override
        protected boolean parksAfterDecision() {
            return true;
        }

        @Override
        protected String key(Rule rule, int index) {
            return "k";
        }

        @Override
        protected String missingKey(Rule rule, int index) {
            return "none";
        }

        @Override
        protected String where() {
            return "";
        }

        @Override
        protected String noun() {
            return "call";
        }
    }

    /** Decides a fresh call: null if admitted (its wait in {@link Call#waitNanos}). */
    private KeyedCall admitted(Rule rule) {
        KeyedCall call = new KeyedCall();
        assertThat(decider.decide(new Rule[] {rule}, 1, call)).as("admitted").isNull();
        return call;
    }

    @Test
    void maxWaitersBoundsTheCallsWaitingAtOnceAndARefusedCallReservesNothing() throws Exception {
        Rule rule = rule("    match: { http: { path: /a } }\n    strategy: token-bucket\n    limit: 1\n    window: 1s\n"
                + "    on-limit: wait\n    max-wait: 10s\n    max-waiters: 2\n");
        assertThat(admitted(rule).waitNanos).isZero();
        KeyedCall first = admitted(rule);
        assertThat(first.waitNanos).isEqualTo(1000 * MS);
        KeyedCall second = admitted(rule);
        assertThat(second.waitNanos).isEqualTo(2000 * MS);
        assertThat(rule.stats().waiting()).isEqualTo(2);

        KeyedCall refused = new KeyedCall();
        assertThat(decider.decide(new Rule[] {rule}, 1, refused)).isSameAs(rule);
        assertThat(refused.out[Outcome.RETRY_AFTER_MILLIS]).as("the wait it would have had").isEqualTo(3000);
        assertThat(rule.stats().waitRefused().sum()).isEqualTo(1);
        assertThat(rule.stats().rejected().sum()).isEqualTo(1);
        assertThat(rule.stats().waiting()).isEqualTo(2);

        first.clearReservations(); // its wait ended: its slot is free; the refused call took no time
        assertThat(rule.stats().waiting()).isEqualTo(1);
        KeyedCall third = admitted(rule);
        assertThat(third.waitNanos).isEqualTo(3000 * MS);
        assertThat(rule.stats().waited().sum()).isEqualTo(3);
        assertThat(rule.stats().waitNanos().sum()).isEqualTo(6000 * MS);
        second.refundReservations(); // interrupted: its slot and its waiter place come back
        third.clearReservations();
        assertThat(rule.stats().waiting()).isZero();
    }

    /**
     * Many calls at once on a frozen clock: one takes the free permit, exactly {@code max-waiters} wait, every
     * other is refused for the full gauge. None is refused for a wait beyond {@code max-wait}, which a
     * reservation given back an instant later would cause, were it visible to the others.
     */
    @Test
    void concurrentCallsBeyondMaxWaitersAreAllRefusedForTheGaugeNeverForMaxWait() throws Exception {
        int threads = 16;
        int waiters = 3;
        for (int round = 0; round < 200; round++) {
            // the 4th waiter would wait 4 s, within max-wait: only the gauge can refuse it
            Rule rule = rule("    match: { http: { path: /a } }\n    strategy: token-bucket\n    limit: 1\n"
                    + "    window: 1s\n    on-limit: wait\n    max-wait: 5s\n    max-waiters: " + waiters + "\n");
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
            java.util.concurrent.atomic.AtomicInteger atOnce = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
            java.util.List<Thread> started = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread thread = new Thread(() -> {
                    KeyedCall call = new KeyedCall();
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    if (decider.decide(new Rule[] {rule}, 1, call) != null) {
                        refused.incrementAndGet();
                    } else if (call.waitNanos == 0) {
                        atOnce.incrementAndGet();
                    } else {
                        waiting.incrementAndGet(); // keeps its slot: the wait has not ended
                    }
                });
                thread.start();
                started.add(thread);
            }
            for (Thread thread : started) {
                thread.join();
            }
            assertThat(new int[] {atOnce.get(), waiting.get(), refused.get()}).as("round %d", round)
                    .containsExactly(1, waiters, threads - 1 - waiters);
            assertThat(rule.stats().waitRefused().sum()).as("round %d", round).isEqualTo(threads - 1 - waiters);
            assertThat(rule.stats().waiting()).isEqualTo(waiters);
            holder.close();
            holder = null;
        }
    }

    @Test
    void aFixedWindowWaiterRefundsIntoTheWindowItReserved() throws Exception {
        Rule rule = rule("    match: { http: { path: /a } }\n    limit: 1\n    window: 1s\n    on-limit: wait\n"
                + "    max-wait: 5s\n    max-waiters: 10\n");
        assertThat(admitted(rule).waitNanos).isZero();
        KeyedCall interrupted = admitted(rule);
        assertThat(interrupted.waitNanos).isEqualTo(1000 * MS);
        interrupted.refundReservations();
        KeyedCall next = admitted(rule);
        assertThat(next.waitNanos).as("the refunded slot of the next window").isEqualTo(1000 * MS);
        assertThat(admitted(rule).waitNanos).isEqualTo(2000 * MS);
    }

    @Test
    void anEventLoopThreadNeverWaitsItTakesAFreePermitOrIsRejectedAtOnce() throws Exception {
        Rule rule = rule("    match: { http: { path: /a } }\n    strategy: token-bucket\n    limit: 1\n    window: 1s\n"
                + "    on-limit: wait\n    max-wait: 10s\n    max-waiters: 5\n");
        AtomicReference<Object[]> seen = new AtomicReference<>();
        Thread loop = new FastThreadLocalThread(() -> {
            KeyedCall free = new KeyedCall();
            Rule first = decider.decide(new Rule[] {rule}, 1, free);
            KeyedCall over = new KeyedCall();
            Rule second = decider.decide(new Rule[] {rule}, 1, over);
            seen.set(new Object[] {first, free.waitNanos, second, Waiting.mayPark()});
        });
        loop.start();
        loop.join();
        assertThat(seen.get()).containsExactly(null, 0L, rule, false);
        assertThat(rule.stats().waitRefused().sum()).isEqualTo(1);
        assertThat(rule.stats().waiting()).isZero();
        assertThat(Waiting.mayPark()).as("this test's own thread").isTrue();
        // the event loop took nothing from the future: a thread that may wait gets the first later slot
        assertThat(admitted(rule).waitNanos).isEqualTo(1000 * MS);
    }

    @Test
    void anAdapterThatDoesNotParkNeverWaitsWhateverTheThread() throws Exception {
        Rule rule = rule("    match: { http: { path: /a } }\n    strategy: token-bucket\n    limit: 1\n    window: 1s\n"
                + "    on-limit: wait\n    max-wait: 10s\n    max-waiters: 5\n");
        KeyedCall reactive = new KeyedCall() {
            @Override
            protected boolean parksAfterDecision() {
                return false; // as WebFlux's exchange: admitted or rejected now
            }
        };
        assertThat(decider.decide(new Rule[] {rule}, 1, reactive)).isNull();
        assertThat(decider.decide(new Rule[] {rule}, 1, reactive)).isSameAs(rule);
        assertThat(reactive.waitNanos).isZero();
        assertThat(rule.stats().waitRefused().sum()).isEqualTo(1);
        assertThat(rule.stats().waiting()).isZero();
    }

    @Test
    void reactorsNonBlockingMarkerIsAnEventLoopToo() {
        assertThat(Waiting.eventLoop(Thread.class)).isFalse();
        assertThat(Waiting.eventLoop(FastThreadLocalThread.class)).isTrue();
        assertThat(Waiting.eventLoop(MarkedLoop.class)).isTrue();
    }

    /** A thread class marked like Reactor's non-blocking threads (the marker by name, through an interface). */
    private static final class MarkedLoop extends Thread implements SchedulerThread {
    }

    private interface SchedulerThread extends reactor.core.scheduler.NonBlocking {
    }
}
