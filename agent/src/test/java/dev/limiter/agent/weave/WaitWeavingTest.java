package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.jmx.JmxRegistrar;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import waittest.Pacer;

/**
 * {@code on-limit: wait} on woven methods in this JVM (Byte Buddy self-attach, the agent's real transformer and
 * {@link MethodLimiter}). The rules run on a frozen {@link ManualClock}, so which calls wait, how long and which
 * are rejected is exact; the threads really park for those waits. Elapsed time is only checked as a lower bound
 * (a park never ends early) and a loose upper bound.
 */
class WaitWeavingTest {

    private static final long MS = 1_000_000L;
    private static final String RULES = """
            version: 1
            rules:
              - id: wait-file
                match: { method: { class: waittest.Pacer, method: paced } }
                key: arg:0
                strategy: token-bucket
                limit: 10
                window: 1s
                capacity: 1
                on-limit: wait
                max-wait: 250ms
              - id: wait-slow
                match: { method: { class: waittest.Pacer, method: slow } }
                key: arg:0
                strategy: token-bucket
                limit: 1
                window: 2s
                on-limit: wait
                max-wait: 3s
            """;

    @TempDir
    static Path dir;

    private static RuleSetHolder holder;
    private static Instrumentation inst;
    private static LimiterTransformer transformer;

    @BeforeAll
    static void weave() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        ThrottledLog log = new ThrottledLog("dev.limiter.test", 0);
        LimiterBridge.installMethods(new MethodLimiter(holder, log, new RequestViews(ServletLimiter.requestLookup())));
        inst = ByteBuddyAgent.install();
        transformer = LimiterTransformer.forRules(holder, log, Diagnostics.WOVEN_LISTENER).installOn(inst);
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst);
        LimiterBridge.installMethods(null);
    }

    private static RuleStats stats(String id) {
        return holder.current().rule(id).stats();
    }

    // Lambdas capture Object and cast, so JUnit's reflection over this class does not load Pacer before weaving.

    @Test
    void callsWaitTheirTurnAndOneThatWouldWaitLongerThanMaxWaitIsRejectedAtOnce() throws Exception {
        Object pacer = new Pacer();
        long waitedBefore = stats("wait-file").waited().sum();
        long start = System.nanoTime();
        assertThat(((Pacer) pacer).paced("a")).isEqualTo("ran a"); // the burst of 1: no wait
        assertThat(((Pacer) pacer).paced("a")).isEqualTo("ran a"); // 100 ms
        assertThat(((Pacer) pacer).paced("a")).isEqualTo("ran a"); // 200 ms after the first
        long elapsed = System.nanoTime() - start;
        assertThat(elapsed).as("parked until the reserved time, never less").isGreaterThanOrEqualTo(200 * MS);
        assertThat(elapsed).as("loose upper bound").isLessThan(30_000 * MS);
        // the next would wait 300 ms > max-wait 250 ms: rejected without waiting, taking nothing
        assertThatThrownBy(() -> ((Pacer) pacer).paced("a")).isInstanceOfSatisfying(
                RateLimitExceededException.class, e -> {
                    assertThat(e.ruleId()).isEqualTo("wait-file");
                    assertThat(e.retryAfterMillis()).isEqualTo(50);
                });
        assertThat(stats("wait-file").waited().sum() - waitedBefore).isEqualTo(2);
    }

    @Test
    void anInterruptedWaitRejectsTheCallGivesThePermitBackAndKeepsTheInterrupt() throws Exception {
        Object pacer = new Pacer();
        ((Pacer) pacer).slow("i"); // the burst: the next one waits 2 s
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                ((Pacer) pacer).slow("i");
            } catch (Throwable t) {
                thrown.set(t);
            }
            flag.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(thrown.get()).isInstanceOfSatisfying(RateLimitExceededException.class,
                e -> assertThat(e.ruleId()).isEqualTo("wait-slow"));
        assertThat(flag.get()).as("the interrupt flag is set again").isTrue();
        // the interrupted call's slot went back: the next waits 2 s, not 4 s (which max-wait 3s would reject)
        long totalBefore = stats("wait-slow").waitNanos().sum();
        assertThat(((Pacer) pacer).slow("i")).isEqualTo("slow i");
        assertThat(stats("wait-slow").waitNanos().sum() - totalBefore).isEqualTo(2_000 * MS);
    }

    @Test
    void aThreadAlreadyInterruptedIsRejectedWithoutWaiting() {
        Object pacer = new Pacer();
        ((Pacer) pacer).paced("pre");
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> ((Pacer) pacer).paced("pre")).isInstanceOf(RateLimitExceededException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        long totalBefore = stats("wait-file").waitNanos().sum();
        ((Pacer) pacer).paced("pre");
        assertThat(stats("wait-file").waitNanos().sum() - totalBefore).isEqualTo(100 * MS);
    }

    @Test
    void anAnnotationWithOnLimitWaitWaitsAndShowsInJmx() throws Exception {
        Object pacer = new Pacer();
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        try (JmxRegistrar registrar = JmxRegistrar.register(server, holder)) {
            long start = System.nanoTime();
            assertThat(((Pacer) pacer).annotated()).isEqualTo("annotated");
            assertThat(((Pacer) pacer).annotated()).isEqualTo("annotated"); // about a second later
            long elapsed = System.nanoTime() - start;
            ObjectName name = new ObjectName("dev.limiter:type=Rule,name=wait-anno");
            await().atMost(Duration.ofSeconds(10)).until(() -> server.isRegistered(name));
            assertThat(server.getAttribute(name, "Waited")).isEqualTo(1L);
            long waited = (Long) server.getAttribute(name, "WaitMillisTotal");
            assertThat(waited).isBetween(1L, 1_000L);
            assertThat(elapsed).as("parked at least the wait it was given").isGreaterThanOrEqualTo(waited * MS);
        }
    }

    @Test
    void manyPlatformThreadsGetExactlyTheSlotsWithinMaxWait() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(200);
        try {
            assertThat(race(pool, 200, "platform")).isEqualTo(3); // now, +100 ms, +200 ms
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void manyVirtualThreadsGetExactlyTheSlotsWithinMaxWait() throws Exception {
        assumeThat(Runtime.version().feature()).isGreaterThanOrEqualTo(21);
        ExecutorService pool = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
        try {
            assertThat(race(pool, 1_000, "virtual")).isEqualTo(3);
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@code callers} threads call at once on one key; returns how many ran (the others were rejected). */
    private static int race(ExecutorService pool, int callers, String key) throws Exception {
        Object pacer = new Pacer();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            results.add(pool.submit(() -> {
                start.await();
                try {
                    ((Pacer) pacer).paced(key);
                    return true;
                } catch (RateLimitExceededException rejected) {
                    return false;
                }
            }));
        }
        start.countDown();
        int ran = 0;
        for (Future<Boolean> result : results) {
            if (result.get()) {
                ran++;
            }
        }
        return ran;
    }
}
