package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.Reweaving;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.agent.testing.LogCapture;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import methodtest.AuditedServlet;
import methodtest.Billing;
import methodtest.CheckedQuota;
import methodtest.Counter;
import methodtest.Directory;
import methodtest.EarlyService;
import methodtest.LateService;
import methodtest.LoopService;
import methodtest.Mailer;
import methodtest.QuotaExceeded;
import methodtest.Rekeyed;
import methodtest.Worker;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import weavingtest.FakeHttp;

/**
 * Weaves plain methods named by {@code method:} rules in this JVM (Byte Buddy self-attach, the agent's real
 * {@link LimiterTransformer}, {@link MethodLimiter} and {@link Reweaver}) and calls them: exact admissions, the exceptions a
 * rejection throws, concurrency permits held until exit, argument keys, dry-run, the kill switch, reloads that
 * add and remove rules for loaded classes, and no allocation on the allowed path. The woven classes live in
 * {@code methodtest} (outside the ignored {@code dev.limiter.} packages); each test uses its own methods, so
 * the tests share one rules file and one clock that never moves (windows never roll).
 */
class MethodWeavingTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: send
                match: { method: { class: methodtest.Mailer, method: send } }
                limit: 100
                window: 1h
              - id: notify
                match: { method: { class: methodtest.Mailer, method: notify } }
                limit: 100
                window: 1h
              - id: send-to
                match: { method: { class: methodtest.Mailer, method: sendTo } }
                key: arg:0
                limit: 2
                window: 1h
              - id: count
                match: { method: { class: methodtest.Mailer, method: sendCount } }
                limit: 1
                window: 1h
              - id: describe
                match: { method: { class: methodtest.Mailer, method: describe } }
                key: arg:0
                limit: 1
                window: 1h
                mode: dry-run
              - id: template
                match: { method: { class: methodtest.Mailer, method: template } }
                limit: 1
                window: 1h
              - id: charge
                match: { method: { class: methodtest.Billing, method: charge } }
                limit: 1
                window: 1h
                throw: methodtest.QuotaExceeded
              - id: refund
                match: { method: { class: methodtest.Billing, method: refund } }
                limit: 1
                window: 1h
                throw: methodtest.NoSuchException
              - id: audit
                match: { method: { class: methodtest.Billing, method: audit } }
                limit: 1
                window: 1h
                throw: methodtest.CheckedQuota
              - id: export
                match: { method: { class: methodtest.Billing, method: export } }
                limit: 1
                window: 1h
                throw: methodtest.CheckedQuota
              - id: settle
                match: { method: { class: methodtest.Billing, method: settle } }
                limit: 1
                window: 1h
                throw: methodtest.CodedQuota
              - id: hold
                match: { method: { class: methodtest.Worker, method: hold } }
                strategy: concurrency
                limit: 2
              - id: fail
                match: { method: { class: methodtest.Worker, method: fail } }
                strategy: concurrency
                limit: 1
              - id: nested-outer
                match: { method: { class: methodtest.Worker, method: outer } }
                key: arg:0
                strategy: concurrency
                limit: 1
              - id: nested-inner
                match: { method: { class: methodtest.Worker, method: inner } }
                strategy: concurrency
                limit: 1
              - id: lookup-name
                match: { method: { class: methodtest.Directory, method: lookup } }
                key: arg:0
                limit: 100
                window: 1h
              - id: lookup-tenant
                match: { method: { class: methodtest.Directory, method: lookup } }
                key: arg:1
                limit: 1
                window: 1h
              - id: secure
                match: { method: { class: methodtest.Directory, method: secure } }
                key: principal
                limit: 100
                window: 1h
                on-error: reject
              - id: early
                match: { method: { class: methodtest.EarlyService, method: call } }
                limit: 1
                window: 1h
              - id: rekeyed
                match: { method: { class: methodtest.Rekeyed, method: call } }
                key: arg:0
                limit: 1
                window: 1h
              - id: audited
                match: { method: { class: methodtest.AuditedServlet, method: audit } }
                limit: 1
                window: 1h
              - id: counter
                match: { method: { class: methodtest.Counter, method: count } }
                key: arg:0
                limit: 2000000000
                window: 1h
            """;

    private static final String LATE_RULE = """
              - id: late
                match: { method: { class: methodtest.LateService, method: call } }
                limit: 1
                window: 1h
            """;

    private static final String LOOP_RULE = """
              - id: loop
                match: { method: { class: methodtest.LoopService, method: call } }
                limit: 1
                window: 1h
            """;

    @TempDir
    static Path dir;

    private static Path file;
    private static RuleSetHolder holder;
    private static Instrumentation inst;
    private static LimiterTransformer transformer;
    /** Holds the logger strongly: JUL keeps loggers weakly, and a collected one would come back without it. */
    private static LogCapture logs;

    @BeforeAll
    static void weave() throws Exception {
        file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        logs = LogCapture.on(Logger.getLogger("dev.limiter"));
        ThrottledLog log = new ThrottledLog("dev.limiter.test", 0);
        LimiterBridge.installMethods(new MethodLimiter(holder, log, new RequestViews(ServletLimiter.requestLookup())));
        inst = ByteBuddyAgent.install();
        assertThat(new EarlyService().call("before")).isEqualTo("early before");
        transformer = LimiterTransformer.forRules(holder, log, Diagnostics.WOVEN_LISTENER).installOn(inst);
        holder.addListener(new Reweaver(holder, inst, log));
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst);
        LimiterBridge.installMethods(null);
        logs.close();
    }

    @Test
    void aServletThatARuleNamesGetsItsEntryPointAndItsNamedMethodWoven() throws Exception {
        List<String> requests = new ArrayList<>();
        LimiterBridge.install(new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                requests.add("start");
                return false;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                requests.add("end");
            }
        });
        try {
            AuditedServlet servlet = new AuditedServlet();
            FakeHttp http = new FakeHttp("jakarta.servlet", "/audit");
            servlet.service((jakarta.servlet.ServletRequest) http.request,
                    (jakarta.servlet.ServletResponse) http.response);
            assertThat(requests).containsExactly("start", "end");
            assertThat(servlet.audit("a")).isEqualTo("audited a");
            assertThatThrownBy(() -> servlet.audit("b")).isInstanceOf(RateLimitExceededException.class);
        } finally {
            LimiterBridge.install(null);
        }
    }

    private static Rule rule(String id) {
        return holder.current().rule(id);
    }

    /** Permits a concurrency rule has free for the global key. */
    private static long freePermits(String id) {
        return rule(id).limiter().remaining("", new long[4]);
    }

    private static List<String> logged() {
        List<String> messages = new ArrayList<>();
        for (LogRecord record : logs.records) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                messages.add(record.getMessage());
            }
        }
        return messages;
    }

    @Test
    void manyThreadsGetExactlyTheLimitAndTheRestAreRejectedWithTheRuleAndRetryAfter() throws Exception {
        Mailer mailer = new Mailer();
        AtomicInteger rejected = new AtomicInteger();
        List<RateLimitExceededException> samples = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            runAll(pool, 800, () -> {
                try {
                    mailer.send("a@example.com");
                } catch (RateLimitExceededException e) {
                    if (rejected.incrementAndGet() == 1) {
                        synchronized (samples) {
                            samples.add(e);
                        }
                    }
                }
                return null;
            });
        } finally {
            pool.shutdownNow();
        }
        assertThat(mailer.sent).hasValue(100);
        assertThat(rejected).hasValue(700);
        assertThat(samples.get(0).ruleId()).isEqualTo("send");
        assertThat(samples.get(0).retryAfterMillis()).isBetween(1L, 3_600_000L);
        assertThat(rule("send").stats().allowed().sum()).isEqualTo(100);
        assertThat(rule("send").stats().rejected().sum()).isEqualTo(700);
    }

    @Test
    void virtualThreadsGetExactlyTheLimitToo() throws Exception {
        ExecutorService pool = virtualThreads();
        org.junit.jupiter.api.Assumptions.assumeTrue(pool != null, "virtual threads need Java 21+");
        Mailer mailer = new Mailer();
        AtomicInteger rejected = new AtomicInteger();
        try {
            runAll(pool, 2_000, () -> {
                try {
                    mailer.notify("b@example.com");
                } catch (RateLimitExceededException e) {
                    rejected.incrementAndGet();
                }
                return null;
            });
        } finally {
            pool.shutdownNow();
        }
        assertThat(mailer.sent).hasValue(100);
        assertThat(rejected).hasValue(1_900);
    }

    @Test
    void primitiveAndObjectReturnsAndStaticMethodsThrowTheRejectionInsteadOfReturningADefault() {
        Mailer mailer = new Mailer();
        assertThat(mailer.sendCount(5)).isEqualTo(7L);
        assertThatThrownBy(() -> mailer.sendCount(5)).isInstanceOf(RateLimitExceededException.class)
                .hasMessageContaining("rule count");
        assertThat(Mailer.template("x")).isEqualTo("template x");
        assertThatThrownBy(() -> Mailer.template("x")).isInstanceOf(RateLimitExceededException.class);
        assertThat(mailer.sent).hasValue(1);
    }

    @Test
    void anIntArgumentKeyGivesEachValueItsOwnBudget() {
        Mailer mailer = new Mailer();
        assertThat(mailer.sendTo(1)).isEqualTo(42);
        assertThat(mailer.sendTo(1)).isEqualTo(42);
        assertThatThrownBy(() -> mailer.sendTo(1)).isInstanceOf(RateLimitExceededException.class);
        assertThat(mailer.sendTo(2)).isEqualTo(42);
        assertThat(mailer.sendTo(1_000_000)).isEqualTo(42);
        assertThat(rule("send-to").limiter().activeKeys()).isEqualTo(3);
    }

    @Test
    void dryRunCountsWouldRejectAndLetsEveryCallRun() {
        Mailer mailer = new Mailer();
        for (int i = 0; i < 5; i++) {
            assertThat(mailer.describe("s")).isEqualTo("mail s");
        }
        assertThat(mailer.describe("t")).isEqualTo("mail t");
        assertThat(rule("describe").stats().allowed().sum()).isEqualTo(2);
        assertThat(rule("describe").stats().wouldReject().sum()).isEqualTo(4);
        assertThat(rule("describe").stats().rejected().sum()).isZero();
    }

    @Test
    void theKillSwitchLetsEverythingThrough() {
        Worker worker = new Worker();
        LimiterBridge.setEnabled(false);
        try {
            for (int i = 0; i < 10; i++) {
                assertThat(worker.outer(3)).isEqualTo(3);
            }
        } finally {
            LimiterBridge.setEnabled(true);
        }
    }

    @Test
    void aThrowClassWithAMessageConstructorIsThrown() {
        Billing billing = new Billing();
        assertThat(billing.charge("acct")).isEqualTo("charged acct");
        assertThatThrownBy(() -> billing.charge("acct")).isExactlyInstanceOf(QuotaExceeded.class)
                .hasMessageMatching("rate limit exceeded: rule charge, retry after \\d+s");
    }

    @Test
    void aDeclaredCheckedThrowClassIsThrown() throws Exception {
        Billing billing = new Billing();
        assertThat(billing.audit("acct")).isEqualTo("audited acct");
        assertThatThrownBy(() -> billing.audit("acct")).isExactlyInstanceOf(CheckedQuota.class);
    }

    @Test
    void aThrowClassThatCannotBeUsedIsReportedOnceAndTheDefaultExceptionIsThrown() {
        Billing billing = new Billing();
        assertThat(logged()).anySatisfy(m -> assertThat(m).contains("rule refund", "methodtest.NoSuchException",
                "cannot be loaded"));
        assertThat(logged()).anySatisfy(m -> assertThat(m).contains("rule export", "methodtest.CheckedQuota",
                "checked exception that methodtest.Billing#export does not declare"));
        assertThat(logged()).anySatisfy(m -> assertThat(m).contains("rule settle", "methodtest.CodedQuota",
                "no public (String) or no-argument constructor"));
        billing.refund("a");
        billing.export("a");
        billing.settle("a");
        assertThatThrownBy(() -> billing.settle("a")).isExactlyInstanceOf(RateLimitExceededException.class)
                .hasMessageContaining("rule settle");
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> billing.refund("a")).isExactlyInstanceOf(RateLimitExceededException.class)
                    .hasMessageContaining("rule refund");
            assertThatThrownBy(() -> billing.export("a")).isExactlyInstanceOf(RateLimitExceededException.class)
                    .hasMessageContaining("rule export");
        }
        assertThat(logged()).filteredOn(m -> m.contains("rule refund")).hasSize(1);
        assertThat(logged()).filteredOn(m -> m.contains("rule export")).hasSize(1);
    }

    @Test
    void aConcurrencyRuleHoldsItsPermitUntilTheMethodReturns() throws Exception {
        Worker worker = new Worker();
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                running.add(pool.submit(() -> {
                    worker.hold(entered, release);
                    return null;
                }));
            }
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> worker.hold(new CountDownLatch(1), new CountDownLatch(0)))
                    .isInstanceOf(RateLimitExceededException.class).hasMessageContaining("rule hold");
            release.countDown();
            for (Future<?> call : running) {
                call.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        worker.hold(new CountDownLatch(1), new CountDownLatch(0));
        assertThat(freePermits("hold")).isEqualTo(2);
    }

    @Test
    void aConcurrencyRuleReleasesItsPermitWhenTheMethodThrows() {
        Worker worker = new Worker();
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> worker.fail("boom")).isExactlyInstanceOf(IllegalStateException.class)
                    .hasMessage("boom");
        }
        assertThat(rule("fail").stats().allowed().sum()).isEqualTo(5);
        assertThat(rule("fail").stats().rejected().sum()).isZero();
        assertThat(freePermits("fail")).isEqualTo(1);
    }

    @Test
    void nestedWovenMethodsReleaseExactlyTheirOwnPermits() {
        Worker worker = new Worker();
        // outer(2) -> inner(1) -> outer(0): outer keys "2" and "0", inner the global key: all three hold a permit
        assertThat(worker.outer(2)).isEqualTo(2);
        assertThat(worker.outer(1)).isEqualTo(1);
        // outer(3) -> inner(2) -> outer(1) -> inner(0): the second inner finds the global permit held and is
        // rejected; the rejection unwinds through three woven exits, each giving back its own permit
        assertThatThrownBy(() -> worker.outer(3)).isInstanceOf(RateLimitExceededException.class)
                .hasMessageContaining("rule nested-inner");
        assertThat(freePermits("nested-inner")).isEqualTo(1);
        for (String key : new String[] {"0", "1", "2", "3"}) {
            assertThat(rule("nested-outer").limiter().remaining(key, new long[4])).isEqualTo(1);
        }
        assertThat(worker.outer(2)).isEqualTo(2);
    }

    @Test
    void aRuleKeyingOnAnArgumentThatWasNotWovenIsAnErrorAndItsOnErrorDecides() {
        Directory directory = new Directory();
        for (int i = 0; i < 3; i++) {
            assertThat(directory.lookup("ann", "acme")).isEqualTo("ann@acme");
        }
        // the method passes arg:0 (the first rule's); lookup-tenant's arg:1 key fails, on-error: allow
        assertThat(rule("lookup-tenant").stats().errors().sum()).isEqualTo(3);
        assertThat(rule("lookup-tenant").stats().allowed().sum()).isZero();
        assertThat(rule("lookup-name").stats().allowed().sum()).isEqualTo(3);
        assertThat(logged()).anySatisfy(m -> assertThat(m).contains("rule lookup-tenant keys on arg:1",
                "woven with arg:0"));
    }

    @Test
    void aPrincipalKeyWithoutAServletRequestFailsAndOnErrorRejectRejects() {
        Directory directory = new Directory();
        assertThatThrownBy(() -> directory.secure("x")).isInstanceOf(RateLimitExceededException.class)
                .hasMessageContaining("rule secure, retry after 1s");
        assertThat(rule("secure").stats().errors().sum()).isEqualTo(1);
        assertThat(logged()).anySatisfy(m -> assertThat(m).contains("rule secure: key principal needs a servlet"
                + " container"));
    }

    @Test
    void aClassLoadedBeforeTheTransformerIsRetransformedAtInstallation() {
        EarlyService early = new EarlyService();
        assertThat(early.call("a")).isEqualTo("early a");
        assertThatThrownBy(() -> early.call("b")).isInstanceOf(RateLimitExceededException.class)
                .hasMessageContaining("rule early");
    }

    @Test
    void otherMethodsOfAWovenClassAreUntouched() {
        Mailer mailer = new Mailer();
        for (int i = 0; i < 1_000; i++) {
            assertThat(mailer.untouched()).isEqualTo(1);
        }
    }

    @Test
    void aReloadThatAddsARuleForALoadedClassTakesEffectAndRemovingItStopsRejectionsAtOnce() throws Exception {
        LateService service = new LateService();
        for (int i = 0; i < 5; i++) {
            assertThat(service.call("x")).isEqualTo("called x");
        }
        int wovenBefore = Diagnostics.wovenClasses();
        Files.writeString(file, RULES + LATE_RULE);
        assertThat(holder.reload()).isTrue();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            try {
                service.call("x");
            } catch (RateLimitExceededException ignored) {
                // the first woven call may already have taken the one permit
            }
            assertThatThrownBy(() -> service.call("x")).isInstanceOf(RateLimitExceededException.class)
                    .hasMessageContaining("rule late");
        });
        assertThat(service.other("y")).isEqualTo("other y");
        assertThat(Diagnostics.wovenClasses()).as("the re-woven class counts in WovenTypes")
                .isGreaterThan(wovenBefore);
        Files.writeString(file, RULES);
        assertThat(holder.reload()).isTrue();
        for (int i = 0; i < 5; i++) {
            assertThat(service.call("x")).isEqualTo("called x");
        }
    }

    @Test
    void noCallAfterTheReloadSaysItsMethodRulesAreInForceGoesUnchecked() throws Exception {
        LoopService service = new LoopService();
        AtomicBoolean inForce = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong passedAfterInForce = new AtomicLong();
        AtomicLong rejectedAfterInForce = new AtomicLong();
        Thread caller = new Thread(() -> {
            for (int i = 0; !stop.get(); i++) {
                boolean after = inForce.get();
                try {
                    service.call(i);
                    if (after) {
                        passedAfterInForce.incrementAndGet();
                    }
                } catch (RateLimitExceededException rejected) {
                    if (after) {
                        rejectedAfterInForce.incrementAndGet();
                    }
                }
            }
        }, "tight-loop");
        caller.start();
        try {
            String before = Reweaving.last();
            Files.writeString(file, RULES + LOOP_RULE);
            assertThat(holder.reload()).isTrue();
            await().atMost(Duration.ofSeconds(20)).until(
                    () -> !Reweaving.last().equals(before) && Reweaving.state().equals("in force"));
            inForce.set(true);
            await().atMost(Duration.ofSeconds(20)).until(() -> rejectedAfterInForce.get() >= 1000);
        } finally {
            stop.set(true);
            caller.join();
            Files.writeString(file, RULES);
            assertThat(holder.reload()).isTrue();
        }
        assertThat(Reweaving.last()).contains("in force after").contains("re-woven");
        assertThat(passedAfterInForce.get()).as("calls that passed once the rules were said to be in force: at most"
                + " the one permit").isLessThanOrEqualTo(1);
    }

    @Test
    void aReloadThatKeysAMethodOnAnotherArgumentReweavesIt() throws Exception {
        Rekeyed rekeyed = new Rekeyed();
        assertThat(rekeyed.call("a", "same")).isEqualTo("asame");
        assertThatThrownBy(() -> rekeyed.call("a", "same")).isInstanceOf(RateLimitExceededException.class);
        assertThat(rekeyed.call("b", "same")).as("keyed on the first argument").isEqualTo("bsame");
        try {
            Files.writeString(file, RULES.replace("methodtest.Rekeyed, method: call } }\n    key: arg:0",
                    "methodtest.Rekeyed, method: call } }\n    key: arg:1"));
            assertThat(holder.reload()).isTrue();
            assertThat(rule("rekeyed").key().index()).isEqualTo(1);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                try {
                    rekeyed.call("c", "other");
                } catch (RateLimitExceededException ignored) {
                    // the re-woven method may already have used the key's one permit
                }
                assertThatThrownBy(() -> rekeyed.call("d", "other")).as("keyed on the second argument")
                        .isInstanceOf(RateLimitExceededException.class);
            });
            assertThat(rekeyed.call("e", "third")).isEqualTo("ethird");
        } finally {
            Files.writeString(file, RULES);
            assertThat(holder.reload()).isTrue();
        }
    }

    @Test
    void theAllowedPathAllocatesNothingForAStringArgumentKey() {
        Counter counter = new Counter();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        String[] keys = {"k1", "k2", "k3", "k4"};
        for (int i = 0; i < 200_000; i++) {
            counter.count(keys[i & 3]);
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            counter.count(keys[i & 3]);
        }
        long started = System.nanoTime();
        for (int i = 0; i < 100_000; i++) {
            counter.count(keys[i & 3]);
        }
        long elapsed = System.nanoTime() - started;
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        System.out.println("MethodWeavingTest: 200000 allowed woven calls allocated " + allocated + " bytes; the"
                + " last 100000 took " + elapsed / 100_000 + " ns per call (wall clock, not a benchmark)");
        assertThat(allocated).isLessThan(16_384);
    }

    private static void runAll(ExecutorService pool, int calls, Callable<Void> call) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Void>> futures = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            futures.add(pool.submit(() -> {
                start.await();
                return call.call();
            }));
        }
        start.countDown();
        for (Future<Void> future : futures) {
            future.get(30, TimeUnit.SECONDS);
        }
    }

    private static ExecutorService virtualThreads() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
