package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import annotest.BadWindow;
import annotest.Charged;
import annotest.Mailer;
import annotest.Overridden;
import annotest.QuotaExceeded;
import annotest.Reports;
import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.jmx.JmxRegistrar;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.logging.Handler;
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
 * Weaves {@code @Limit}-annotated methods in this JVM (Byte Buddy self-attach, the agent's real
 * {@link LimiterTransformer} and {@link MethodLimiter}) with a rules file that names none of them: exact
 * admissions and the exception a rejection throws, class-level annotations, a rules-file rule that overrides an
 * annotation by id and a reload that removes it again, a bad annotation logged and left unlimited, and the JMX
 * {@code Source} of each kind of rule. The classes live in {@code annotest}; each test uses its own ids.
 */
class AnnotationWeavingTest {

    private static final String NO_RULES = "version: 1\nrules: []\n";
    private static final String OVERRIDE = """
            version: 1
            rules:
              - id: plain
                match: { method: { class: annotest.Mailer, method: other } }
                limit: 1000
                window: 1h
              - id: anno-override
                match: { method: { class: annotest.Overridden, method: call } }
                key: arg:0
                limit: 3
                window: 1h
            """;

    @TempDir
    static Path dir;

    private static Path file;
    private static RuleSetHolder holder;
    private static Instrumentation inst;
    private static LimiterTransformer transformer;
    private static final List<String> LOGGED = new ArrayList<>();
    /** Held strongly: JUL keeps loggers weakly, and a collected one would come back without the handler. */
    private static final Logger LIMITER_LOGGER = Logger.getLogger("dev.limiter");
    private static final Handler CAPTURE = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (LOGGED) {
                LOGGED.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeAll
    static void weave() throws Exception {
        file = dir.resolve("rules.yml");
        Files.writeString(file, NO_RULES);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        LIMITER_LOGGER.addHandler(CAPTURE);
        ThrottledLog log = new ThrottledLog("dev.limiter.test", 0);
        LimiterBridge.installMethods(new MethodLimiter(holder, log, new RequestViews(ServletLimiter.requestLookup())));
        inst = ByteBuddyAgent.install();
        transformer = LimiterTransformer.forRules(holder, log, Diagnostics.WOVEN_LISTENER).installOn(inst);
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst);
        LimiterBridge.installMethods(null);
        LIMITER_LOGGER.removeHandler(CAPTURE);
    }

    private static int admitted(int calls, Callable<?> call) throws Exception {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            try {
                call.call();
                admitted++;
            } catch (RateLimitExceededException | QuotaExceeded rejected) {
                // counted by what is left
            }
        }
        return admitted;
    }

    // Lambdas below capture Object and cast: a lambda capturing a Mailer compiles to a synthetic method taking
    // one, and JUnit's reflection over this class would load Mailer before the transformer is installed.

    @Test
    void anAnnotatedMethodIsLimitedWithoutAnyRuleNamingItAndThrowsTheRulesException() throws Exception {
        Object mailer = new Mailer();
        assertThat(admitted(5, () -> ((Mailer) mailer).send("a@x"))).isEqualTo(2);
        assertThat(admitted(5, () -> ((Mailer) mailer).send("b@x"))).isEqualTo(2);
        assertThat(admitted(5, () -> ((Mailer) mailer).other("a@x"))).isEqualTo(5);
        assertThatThrownBy(() -> ((Mailer) mailer).send("a@x")).isInstanceOfSatisfying(RateLimitExceededException.class, e -> {
            assertThat(e.ruleId()).isEqualTo("anno-send");
            // a fixed window of 1h ends at the next whole hour
            assertThat(e.retryAfterMillis()).isBetween(1L, 3_600_000L);
            assertThat(e.retryAfterSeconds()).isEqualTo((e.retryAfterMillis() + 999) / 1000);
        });
    }

    @Test
    void aClassLevelAnnotationLimitsEachPublicMethodUnderItsOwnIdAndAMethodsOwnWins() throws Exception {
        Reports reports = new Reports();
        assertThat(admitted(6, reports::daily)).isEqualTo(3);
        assertThat(admitted(6, reports::weekly)).isEqualTo(3);
        assertThat(admitted(6, reports::export)).isEqualTo(1);
        assertThatThrownBy(reports::daily).isInstanceOfSatisfying(RateLimitExceededException.class,
                e -> assertThat(e.ruleId()).isEqualTo("annotest.Reports.daily"));
    }

    @Test
    void attributesBeyondLimitAndWindowApply() throws Exception {
        Charged charged = new Charged();
        assertThat(charged.charge()).isEqualTo("charged");
        assertThatThrownBy(charged::charge).isInstanceOf(QuotaExceeded.class).hasMessageContaining("anno-charge");
        assertThat(admitted(4, charged::preview)).as("dry-run rejects nothing").isEqualTo(4);
    }

    @Test
    void aBadAnnotationIsLoggedOnceWithClassMethodAndAttributeAndItsMethodRunsUnlimited() throws Exception {
        BadWindow bad = new BadWindow();
        assertThat(admitted(5, bad::send)).isEqualTo(5);
        List<String> lines;
        synchronized (LOGGED) {
            lines = LOGGED.stream().filter(line -> line.contains("annotest.BadWindow")).toList();
        }
        assertThat(lines).containsExactly("limiter: bad @Limit on annotest.BadWindow#send: window: window '5 minutes'"
                + " is not a duration: write a whole number and a unit, like 250ms, 1s, 1m, 1h or 1d; the method runs"
                + " unlimited");
    }

    @Test
    void aRulesFileRuleWithTheSameIdOverridesTheAnnotationUntilAReloadRemovesIt() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        Object target = new Overridden();
        try (JmxRegistrar registrar = JmxRegistrar.register(server, holder)) {
            ObjectName name = new ObjectName("dev.limiter:type=Rule,name=anno-override");
            await().atMost(Duration.ofSeconds(10)).until(() -> server.isRegistered(name));
            assertThat(server.getAttribute(name, "Source")).isEqualTo("annotation annotest.Overridden#call");
            assertThat(server.getAttribute(name, "Limit")).isEqualTo(1L);
            assertThat(admitted(5, () -> ((Overridden) target).call("k1"))).as("annotation: limit 1").isEqualTo(1);

            Files.writeString(file, OVERRIDE);
            assertThat(holder.reload()).isTrue();
            assertThat(admitted(5, () -> ((Overridden) target).call("k2"))).as("file rule: limit 3").isEqualTo(3);
            assertThat(server.getAttribute(name, "Limit")).isEqualTo(3L);
            assertThat(server.getAttribute(name, "Source"))
                    .isEqualTo("rules.yml:7 (overrides annotation annotest.Overridden#call)");
            assertThat(server.getAttribute(new ObjectName("dev.limiter:type=Rule,name=plain"), "Source"))
                    .isEqualTo("rules.yml:3");

            Files.writeString(file, NO_RULES);
            assertThat(holder.reload()).isTrue();
            assertThat(admitted(5, () -> ((Overridden) target).call("k3"))).as("annotation again: limit 1").isEqualTo(1);
            assertThat(server.isRegistered(name)).as("the annotation's rule stays registered").isTrue();
            assertThat(server.getAttribute(name, "Source")).isEqualTo("annotation annotest.Overridden#call");
            assertThat(server.isRegistered(new ObjectName("dev.limiter:type=Rule,name=plain"))).isFalse();
        } finally {
            Files.writeString(file, NO_RULES);
            holder.reload();
        }
    }

    @Test
    void annotatedRulesAppearInJmxWithTheirCounters() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        new Charged().preview();
        try (JmxRegistrar registrar = JmxRegistrar.register(server, holder)) {
            ObjectName name = new ObjectName("dev.limiter:type=Rule,name=anno-dry");
            await().atMost(Duration.ofSeconds(10)).until(() -> server.isRegistered(name));
            assertThat(server.getAttribute(name, "Source")).isEqualTo("annotation annotest.Charged#preview");
            assertThat(server.getAttribute(name, "Mode")).isEqualTo("dry-run");
            assertThat(server.getAttribute(name, "WindowMillis")).isEqualTo(3_600_000L);
            assertThat((Long) server.getAttribute(name, "Allowed")).isGreaterThanOrEqualTo(1L);
        }
    }
}
