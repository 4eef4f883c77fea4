package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.UnloadedClasses;
import dev.limiter.agent.jmx.JmxRegistrar;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StatusReader} against the agent's real MBeans ({@link JmxRegistrar} over a {@link RuleSetHolder} on a
 * temporary file), registered on a private MBean server, read by name as the command line reads them from
 * another JVM (the forked tests do that part: {@code it/cli}).
 */
class StatusReaderTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: zeta
                match: { http: { path: /z/**, methods: [GET] } }
                key: ip
                limit: 2
                window: 1m
                strategy: fixed-window
              - id: alpha
                match: { http: { path: /a } }
                limit: 5
                window: 1s
                strategy: token-bucket
                capacity: 9
                mode: dry-run
              - id: mid
                match: { http: { path: /m } }
                strategy: concurrency
                limit: 3
            """;

    @TempDir
    Path dir;

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private Path file;
    private RuleSetHolder holder;
    private JmxRegistrar registrar;

    @BeforeEach
    void setUp() throws Exception {
        file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        registrar = JmxRegistrar.register(server, holder);
    }

    @AfterEach
    void tearDown() {
        registrar.close();
    }

    private Rule rule(String id) {
        return holder.current().rules().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void readsTheLimiterAndEveryRuleInTheFilesOrder() throws Exception {
        rule("zeta").stats().allowed().add(11);
        rule("zeta").stats().rejected().add(4);
        rule("alpha").stats().wouldReject().add(6);
        rule("mid").stats().errors().add(2);

        LimiterStatus status = new StatusReader(new LimiterMBeans(server)).read(99);

        assertThat(status.pid()).isEqualTo(99);
        assertThat(status.enabled()).isTrue();
        assertThat(status.rulesFile()).isEqualTo(file.toAbsolutePath().toString());
        assertThat(status.ruleCount()).isEqualTo(3);
        assertThat(status.reloads()).isZero();
        assertThat(status.failedReloads()).isZero();
        assertThat(status.lastReloadFailed()).isFalse();
        assertThat(status.version()).isNotEmpty();
        assertThat(status.store()).isNull();
        assertThat(status.rules()).extracting(RuleStatus::id).containsExactly("zeta", "alpha", "mid");
        RuleStatus zeta = status.rules().get(0);
        assertThat(zeta.match()).contains("GET").contains("/z/**");
        assertThat(zeta.key()).isEqualTo("ip");
        assertThat(zeta.strategy()).isEqualTo("fixed-window");
        assertThat(List.of(zeta.limit(), zeta.windowMillis(), zeta.allowed(), zeta.rejected(), zeta.wouldReject()))
                .containsExactly(2L, 60_000L, 11L, 4L, 0L);
        assertThat(zeta.mode()).isEqualTo("enforce");
        RuleStatus alpha = status.rules().get(1);
        assertThat(List.of(alpha.limit(), alpha.capacity(), alpha.wouldReject())).containsExactly(5L, 9L, 6L);
        assertThat(alpha.mode()).isEqualTo("dry-run");
        assertThat(alpha.fileMode()).isEqualTo("dry-run");
        assertThat(status.rules().get(2).errors()).isEqualTo(2);
        assertThat(StatusScreen.limit(status.rules().get(2))).isEqualTo("3 at once");
    }

    @Test
    void aFailedReloadShowsItsErrorsAndTheRulesInForce() throws Exception {
        Files.writeString(file, RULES.replace("limit: 2", "limit: -2"));
        assertThat(holder.reload()).isFalse();

        LimiterStatus status = new StatusReader(new LimiterMBeans(server)).read(1);

        assertThat(status.failedReloads()).isEqualTo(1);
        assertThat(status.lastReloadFailed()).isTrue();
        assertThat(status.lastReloadError()).contains("rules.yml:");
        assertThat(status.lastReloadTime()).isNotEmpty();
        assertThat(status.rules()).hasSize(3);
    }

    @Test
    void aRuleSwitchedAtRunTimeShowsBothModes() throws Exception {
        LimiterMBeans mbeans = new LimiterMBeans(server);
        mbeans.set(mbeans.rule("zeta").name(), "Mode", "dry-run");

        RuleStatus zeta = new StatusReader(mbeans).read(1).rules().get(0);

        assertThat(zeta.mode()).isEqualTo("dry-run");
        assertThat(zeta.fileMode()).isEqualTo("enforce");
        assertThat(zeta.modeOverridden()).isTrue();
        assertThat(mbeans.rule("nope")).isNull();
    }

    @Test
    void aMethodRuleWhoseClassHasNotLoadedIsFlagged() throws Exception {
        Files.writeString(file, RULES + """
                  - id: typo
                    match: { method: { class: com.acme.OrderServce, method: place } }
                    limit: 1
                    window: 1m
                """);
        assertThat(holder.reload()).isTrue();
        UnloadedClasses.found(Set.of("typo"));
        try {
            List<RuleStatus> rules = new StatusReader(new LimiterMBeans(server)).read(1).rules();
            assertThat(rules).filteredOn(RuleStatus::noClassLoaded).extracting(RuleStatus::id).containsExactly("typo");
        } finally {
            UnloadedClasses.found(Set.of());
        }
    }
}
