package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import costtest.BatchResource;
import costtest.Exporter;
import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.jmx.JmxRegistrar;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.agent.testing.LogCapture;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.reload.RuleSetHolder;
import jakarta.ws.rs.WebApplicationException;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cost: arg:N} on woven methods in this JVM (Byte Buddy self-attach, the agent's real transformer and
 * {@link MethodLimiter}): the woven code reads the cost from the argument (an int, long or short, an array's
 * length, a collection's size) and each call takes exactly that many permits, on plain methods, an annotated one
 * and a JAX-RS resource method. Fixed windows on a frozen {@link ManualClock}, so every admission count is
 * exact; each test uses its own key (the tenant argument).
 */
class CostArgumentWeavingTest {

    private static final String RULES = """
            version: 1
            rules:
            %s
              - id: cost-collection
                match: { method: { class: costtest.Exporter, method: store } }
                limit: 10
                window: 1h
                cost: arg:0
              - id: cost-wrong-index
                match: { method: { class: costtest.Exporter, method: label } }
                limit: 1
                window: 1h
                cost: arg:3
              - id: cost-wrong-type
                match: { method: { class: costtest.Exporter, method: title } }
                limit: 1
                window: 1h
                cost: arg:0
              - id: cost-alloc-long
                match: { method: { class: costtest.Exporter, method: meter } }
                limit: 2000000000
                window: 1h
                cost: arg:0
              - id: cost-alloc-list
                match: { method: { class: costtest.Exporter, method: meterAll } }
                limit: 2000000000
                window: 1h
                cost: arg:0
              - id: cost-wait
                match: { method: { class: costtest.Exporter, method: paced } }
                strategy: token-bucket
                limit: 100
                window: 1s
                capacity: 10
                on-limit: wait
                max-wait: 200ms
                cost: arg:0
              - id: cost-jaxrs
                match: { jaxrs: { class: costtest.BatchResource, method: submit } }
                key: path-param:tenant
                limit: 10
                window: 1h
                cost: arg:1
              - id: cost-several
                match: { method: { class: costtest.Exporter, method: burst } }
                limits:
                  - { limit: 6, window: 1s }
                  - { limit: 8, window: 1h }
                cost: arg:0
            """;
    /** One rule per method of two arguments: key arg:0 (the tenant), cost arg:1, 10 per hour. */
    private static final String[][] KEYED = {
        {"cost-int", "rows"}, {"cost-long", "bytes"}, {"cost-short", "pages"}, {"cost-array", "send"},
        {"cost-bytes", "upload"}, {"cost-list", "sendAll"}};

    private static final Logger LIMITER_LOGGER = Logger.getLogger("dev.limiter");

    @TempDir
    static Path dir;

    private static RuleSetHolder holder;
    private static Instrumentation inst;
    private static LimiterTransformer transformer;
    private static LogCapture log;

    @BeforeAll
    static void weave() throws Exception {
        StringBuilder keyed = new StringBuilder();
        for (String[] rule : KEYED) {
            keyed.append("  - id: ").append(rule[0]).append("\n    match: { method: { class: costtest.Exporter,"
                    + " method: ").append(rule[1]).append(" } }\n    key: arg:0\n    limit: 10\n    window: 1h\n"
                    + "    cost: arg:1\n");
        }
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RULES.formatted(keyed.toString().stripTrailing()));
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        log = LogCapture.on(LIMITER_LOGGER);
        ThrottledLog throttled = new ThrottledLog("dev.limiter.test.cost", 0);
        LimiterBridge.installMethods(new MethodLimiter(holder, throttled, new RequestViews(ServletLimiter.requestLookup())));
        inst = ByteBuddyAgent.install();
        transformer = LimiterTransformer.forRules(holder, throttled, Diagnostics.WOVEN_LISTENER).installOn(inst);
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst);
        LimiterBridge.installMethods(null);
        log.close();
    }

    private static RuleStats stats(String id) {
        return holder.current().rule(id).stats();
    }

    /** Runs each call in order; returns which were admitted (true) or rejected by {@code rule} (false). */
    @SafeVarargs
    private static List<Boolean> admitted(String rule, Callable<Object>... calls) throws Exception {
        List<Boolean> answers = new ArrayList<>();
        for (Callable<Object> call : calls) {
            try {
                call.call();
                answers.add(true);
            } catch (RateLimitExceededException e) {
                assertThat(e.ruleId()).isEqualTo(rule);
                answers.add(false);
            }
        }
        return answers;
    }

    // Lambdas capture Object and cast, so JUnit's reflection over this class does not load Exporter before weaving.

    @Test
    void anIntArgumentTakesThatManyPermitsAndARejectedCallTakesNone() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        long allowed = stats("cost-int").allowed().sum();
        long rejected = stats("cost-int").rejected().sum();
        // 10 per hour: 4 + 4 = 8; 3 would make 11 (rejected, takes nothing); 2 makes 10; then even 1 is too many
        assertThat(admitted("cost-int", () -> e.rows("int", 4), () -> e.rows("int", 4), () -> e.rows("int", 3),
                () -> e.rows("int", 2), () -> e.rows("int", 1))).containsExactly(true, true, false, true, false);
        assertThat(stats("cost-int").allowed().sum() - allowed).isEqualTo(3);
        assertThat(stats("cost-int").rejected().sum() - rejected).isEqualTo(2);
        // another key has its own budget: the whole 10 at once
        assertThat(e.rows("int-2", 10)).isEqualTo(10);
    }

    @Test
    void zeroAndNegativeCostsCountAsOne() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        assertThat(admitted("cost-int", () -> e.rows("low", 0), () -> e.rows("low", -5),
                () -> e.rows("low", Integer.MIN_VALUE), () -> e.rows("low", 7), () -> e.rows("low", 0)))
                .containsExactly(true, true, true, true, false);
        assertThat(admitted("cost-long", () -> e.bytes("low", 0L), () -> e.bytes("low", Long.MIN_VALUE),
                () -> e.bytes("low", 8L), () -> e.bytes("low", -1L))).containsExactly(true, true, true, false);
    }

    @Test
    void aCostAboveTheLimitIsRejectedAndTakesNothing() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        long rejected = stats("cost-long").rejected().sum();
        // above the limit of 10: never admissible; nothing is taken, so the whole budget is still there
        assertThat(admitted("cost-long", () -> e.bytes("huge", 11L), () -> e.bytes("huge", Integer.MAX_VALUE + 1L),
                () -> e.bytes("huge", Long.MAX_VALUE), () -> e.bytes("huge", 10L), () -> e.bytes("huge", 1L)))
                .containsExactly(false, false, false, true, false);
        assertThat(stats("cost-long").rejected().sum() - rejected).isEqualTo(4);
        assertThatThrownBy(() -> e.rows("huge", Integer.MAX_VALUE)).isInstanceOfSatisfying(
                RateLimitExceededException.class, r -> assertThat(r.retryAfterMillis()).isEqualTo(3_600_000L));
        assertThat(e.rows("huge", 10)).as("the int rule's budget is whole too").isEqualTo(10);
    }

    @Test
    void aLongAndAShortArgumentAreReadAsNumbers() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        assertThat(admitted("cost-long", () -> e.bytes("long", 6L), () -> e.bytes("long", 5L),
                () -> e.bytes("long", 4L))).containsExactly(true, false, true);
        assertThat(admitted("cost-short", () -> e.pages("short", (short) 9), () -> e.pages("short", (short) 2),
                () -> e.pages("short", (short) 1))).containsExactly(true, false, true);
    }

    @Test
    void anArrayCostsItsLengthAndANullOrEmptyArrayCostsOne() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        assertThat(admitted("cost-array", () -> e.send("arr", new String[6]), () -> e.send("arr", null),
                () -> e.send("arr", new String[0]), () -> e.send("arr", new String[3]), () -> e.send("arr", null)))
                .containsExactly(true, true, true, false, true);
        assertThat(admitted("cost-bytes", () -> e.upload("bin", new byte[9]), () -> e.upload("bin", new byte[2]),
                () -> e.upload("bin", new byte[1]), () -> e.upload("bin", new byte[11])))
                .containsExactly(true, false, true, false);
    }

    @Test
    void aCollectionCostsItsSizeAndANullOrEmptyOneCostsOne() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        assertThat(admitted("cost-list", () -> e.sendAll("list", List.of("a", "b", "c", "d", "e")),
                () -> e.sendAll("list", null), () -> e.sendAll("list", Collections.emptyList()),
                () -> e.sendAll("list", List.of("a", "b", "c", "d")), () -> e.sendAll("list", List.of("a", "b", "c")),
                () -> e.sendAll("list", List.of("a")))).containsExactly(true, true, true, false, true, false);
        Set<Integer> set = new HashSet<>(List.of(1, 2, 3, 4));
        long before = stats("cost-collection").allowed().sum();
        assertThat(admitted("cost-collection", () -> e.store(set), () -> e.store(set), () -> e.store(set),
                () -> e.store(List.of(1, 2)))).containsExactly(true, true, false, true);
        assertThat(stats("cost-collection").allowed().sum() - before).isEqualTo(3);
    }

    @Test
    void severalLimitsAllPayTheCostAndARejectionRefundsThem() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        // 6 a second and 8 an hour: 7 is above the second's budget (never admissible); after 5, 2 is refused by
        // the second (the hour's 2 permits go back) and 1 fills the second; the hour then has 2 left
        assertThat(admitted("cost-several", () -> e.burst(7), () -> e.burst(5), () -> e.burst(2), () -> e.burst(1),
                () -> e.burst(1))).containsExactly(false, true, false, true, false);
        String key = "";
        assertThat(holder.current().rule("cost-several").policy().main().limiters()[1].remaining(key,
                new long[5])).isEqualTo(2);
    }

    @Test
    void aWaitingRuleWaitsForTheWholeCostAtOnce() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        long waitedNanos = stats("cost-wait").waitNanos().sum();
        // 100 a second, burst 10, frozen clock: 10 now; 5 more accrue in 50 ms; 20 is above the capacity
        assertThat(admitted("cost-wait", () -> e.paced(10), () -> e.paced(5), () -> e.paced(20)))
                .containsExactly(true, true, false);
        assertThat(stats("cost-wait").waited().sum()).isEqualTo(1);
        assertThat(stats("cost-wait").waitNanos().sum() - waitedNanos).isEqualTo(50_000_000L);
        // reservations queue up after the first 5: 10 more come 150 ms after the frozen now; then 6 would come
        // at 210 ms (beyond max-wait: rejected at once, taking nothing) and 5 at exactly 200 ms
        assertThat(admitted("cost-wait", () -> e.paced(10), () -> e.paced(6), () -> e.paced(5)))
                .containsExactly(true, false, true);
        assertThat(stats("cost-wait").waited().sum()).isEqualTo(3);
        assertThat(stats("cost-wait").waitNanos().sum() - waitedNanos).isEqualTo((50 + 150 + 200) * 1_000_000L);
    }

    @Test
    void aJaxrsResourceMethodReadsItsCostFromItsEntityAndIsRejectedWithA429() {
        Object resource = new BatchResource();
        BatchResource batches = (BatchResource) resource;
        assertThat(batches.submit("t", List.of("a", "b", "c", "d", "e", "f"))).isEqualTo("took 6");
        Throwable rejected = catchThrowable(() -> batches.submit("t", List.of("a", "b", "c", "d", "e")));
        assertThat(rejected).isInstanceOfSatisfying(WebApplicationException.class,
                e -> assertThat(e.getResponse().getStatus()).isEqualTo(429));
        assertThat(batches.submit("t", List.of("a", "b", "c", "d"))).as("the rejected 5 took nothing")
                .isEqualTo("took 4");
        assertThat(batches.submit("u", List.of("a", "b", "c", "d", "e"))).as("another tenant").isEqualTo("took 5");
        assertThat(stats("cost-jaxrs").allowed().sum()).isEqualTo(3);
        assertThat(stats("cost-jaxrs").rejected().sum()).isEqualTo(1);
    }

    @Test
    void anAnnotationReadsItsCostFromAnArgumentToo() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        // 10 a day: 6, then 5 would make 11, 4 makes 10, then even a null array (1) is too many
        assertThat(admitted("cost-anno", () -> e.archive(new long[6]), () -> e.archive(new long[5]),
                () -> e.archive(new long[4]), () -> e.archive(null))).containsExactly(true, false, true, false);
    }

    @Test
    void anArgumentTheMethodCannotSupplyFailsTheRuleWithAClearLog() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        long errors = stats("cost-wrong-index").errors().sum();
        // on-error: allow (the default): the rule fails for this method, which runs unlimited
        for (int i = 0; i < 3; i++) {
            assertThat(e.label("t", "x")).isEqualTo("x");
            assertThat(e.title("y")).isEqualTo("y");
        }
        assertThat(stats("cost-wrong-index").errors().sum() - errors).isEqualTo(3);
        assertThat(stats("cost-wrong-index").allowed().sum()).isZero();
        assertThat(messages()).anySatisfy(m -> assertThat(m).contains("rule cost-wrong-index reads its cost from"
                + " arg:3 but costtest.Exporter#label has no argument 3; the rule fails (on-error: allow)"));
        assertThat(messages()).anySatisfy(m -> assertThat(m).contains("rule cost-wrong-type reads its cost from"
                + " arg:0 but costtest.Exporter#title takes a java.lang.String there, not an int, long, short or"
                + " byte, an array or a java.util.Collection"));
    }

    @Test
    void jmxCountsTheAdmittedAndRejectedCallsOnceEach() throws Exception {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        try (JmxRegistrar registrar = JmxRegistrar.register(server, holder)) {
            ObjectName name = new ObjectName("dev.limiter:type=Rule,name=cost-bytes");
            await().atMost(Duration.ofSeconds(10)).until(() -> server.isRegistered(name));
            long allowed = (Long) server.getAttribute(name, "Allowed");
            long rejected = (Long) server.getAttribute(name, "Rejected");
            assertThat(admitted("cost-bytes", () -> e.upload("jmx", new byte[4]), () -> e.upload("jmx", new byte[7]),
                    () -> e.upload("jmx", new byte[6]), () -> e.upload("jmx", new byte[50])))
                    .containsExactly(true, false, true, false);
            assertThat((Long) server.getAttribute(name, "Allowed") - allowed).isEqualTo(2);
            assertThat((Long) server.getAttribute(name, "Rejected") - rejected).isEqualTo(2);
            assertThat(server.getAttribute(name, "Conditions")).isEqualTo("cost arg:1");
        }
    }

    @Test
    void theAllowedPathAllocatesNothingForANumberOrACollectionCost() {
        Object exporter = new Exporter();
        Exporter e = (Exporter) exporter;
        List<String> items = List.of("a", "b", "c");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 200_000; i++) {
            e.meter(1_000L + (i & 7)); // beyond Long.valueOf's cache: boxing would allocate
            e.meterAll(items);
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            e.meter(1_000L + (i & 7));
            e.meterAll(items);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        System.out.println("CostArgumentWeavingTest: 200000 allowed woven calls with an argument cost allocated "
                + allocated + " bytes");
        assertThat(allocated).isLessThan(16_384);
        assertThat(stats("cost-alloc-long").allowed().sum()).isEqualTo(300_000);
        assertThat(stats("cost-alloc-list").allowed().sum()).isEqualTo(300_000);
    }

    private static List<String> messages() {
        List<String> messages = new ArrayList<>();
        for (LogRecord record : log.records) {
            messages.add(record.getMessage());
        }
        return messages;
    }
}
