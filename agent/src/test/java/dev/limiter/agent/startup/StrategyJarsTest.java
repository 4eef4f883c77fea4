package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.agent.cli.LimiterCli;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.Strategies;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.RuleSetLoader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strategies=}: the worked sliding-log example, built by core as its own jar (copied to
 * {@code target/example-strategies} by this module's build) and absent from this test class path, is loaded by
 * {@link StrategyJars} and then usable from rules; unusable jars fail with a message that names the jar.
 */
class StrategyJarsTest {

    static final Path EXAMPLE = Path.of(System.getProperty("example.strategies", "target/example-strategies"))
            .resolve("sliding-log.jar");

    static final String RULES = """
            version: 1
            rules:
              - id: log
                match: { http: { path: /api/** } }
                strategy: sliding-log-example
                limit: 3
                window: 1m
            """;

    @TempDir
    Path dir;

    @Test
    void theExampleJarIsNotOnTheClassPath() {
        assertThat(getClass().getClassLoader().getResource("dev/limiter/core/spi/SlidingLogStrategy.class"))
                .as("the strategy must come from the jar, not from the test class path").isNull();
        assertThat(EXAMPLE).isRegularFile();
    }

    @Test
    void loadsTheJarsStrategiesInAChildLoaderThatLinksAgainstCore() throws Exception {
        assertThat(StrategyJars.load(List.of(EXAMPLE))).containsExactly("sliding-log-example");
        assertThat(StrategyJars.load(List.of(EXAMPLE))).as("again: the same loader, no clash")
                .containsExactly("sliding-log-example");
        RateLimitStrategy strategy = Strategies.byName("sliding-log-example");
        assertThat(strategy).isNotNull();
        assertThat(strategy.getClass().getName()).isEqualTo("dev.limiter.core.spi.SlidingLogStrategy");
        assertThat(strategy.getClass().getClassLoader().getName()).isEqualTo("limiter-strategies");
        assertThat(strategy.getClass().getClassLoader().getParent()).isSameAs(StrategyJars.class.getClassLoader());

        ManualClock clock = new ManualClock();
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, RULES);
        RuleSet set = RuleSetLoader.load(rules, RuleSet.empty(), clock);
        Rule rule = set.rule("log");
        assertThat(rule.limiter().strategy()).isSameAs(strategy);
        long[] out = Outcome.newArray();
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            if (rule.limiter().tryAcquire("k", out)) {
                admitted++;
            }
        }
        assertThat(admitted).as("3 per minute in any 60 s span").isEqualTo(3);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(60_000);
        clock.advance(60_000);
        assertThat(rule.limiter().tryAcquire("k", out)).isTrue();
    }

    @Test
    void aMissingJarIsNamedInTheError() {
        Path missing = dir.resolve("nope.jar");
        assertThatThrownBy(() -> StrategyJars.load(List.of(EXAMPLE, missing)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strategies: " + missing.toAbsolutePath() + " does not exist");
        assertThatThrownBy(() -> StrategyJars.load(List.of(dir)))
                .hasMessage("strategies: " + dir.toAbsolutePath() + " is not a file");
    }

    @Test
    void aFileThatIsNotAJarOrDeclaresNoStrategyIsRejected() throws IOException {
        Path text = Files.writeString(dir.resolve("strategy.jar"), "not a zip");
        assertThatThrownBy(() -> StrategyJars.load(List.of(text)))
                .hasMessageStartingWith("strategies: " + text.toAbsolutePath() + " is not a readable jar");
        Path empty = dir.resolve("empty.jar");
        try (OutputStream file = Files.newOutputStream(empty); JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new ZipEntry("README"));
            jar.write("nothing here".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> StrategyJars.load(List.of(empty)))
                .hasMessage("strategies: " + empty.toAbsolutePath() + " declares no strategy ("
                        + StrategyJars.SERVICES + " must list the implementation classes)");
    }

    @Test
    void aProviderClassMissingFromTheJarIsReported() throws IOException {
        Path broken = dir.resolve("broken.jar");
        try (OutputStream file = Files.newOutputStream(broken); JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new ZipEntry(StrategyJars.SERVICES));
            jar.write("com.example.Missing\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> StrategyJars.load(List.of(broken)))
                .hasMessageStartingWith("strategies [" + broken.toAbsolutePath() + "]: ")
                .hasMessageContaining("com.example.Missing");
    }

    @Test
    void theAgentArgumentTakesAPathList() {
        String list = "/opt/a.jar" + File.pathSeparator + " /opt/b.jar " + File.pathSeparator;
        AgentArgs args = AgentArgs.parse("rules=r.yml,strategies=" + list + ",strict=true");
        assertThat(args.strategies()).containsExactly(Path.of("/opt/a.jar"), Path.of("/opt/b.jar"));
        assertThat(args.strict()).isTrue();
        assertThat(AgentArgs.parse("rules=r.yml").strategies()).isEmpty();
        assertThatThrownBy(() -> AgentArgs.parse("rules=r.yml,strategy=/a.jar"))
                .hasMessage("unknown agent argument 'strategy' (known: rules, strict, strategies, prometheus)");
    }

    @Test
    void validateTakesTheSameJars() throws IOException {
        Path rules = Files.writeString(dir.resolve("rules.yml"), RULES);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(LimiterCli.run(new String[] {"validate", "--strategies=" + EXAMPLE, rules.toString()}, o, e))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).endsWith(rules + ": OK, 1 rule\n");
        assertThat(LimiterCli.run(new String[] {"validate", "--strategies", EXAMPLE.toString(), rules.toString()},
                o, e)).isZero();

        Path missing = dir.resolve("missing.jar");
        assertThat(LimiterCli.run(new String[] {"validate", "--strategies=" + missing, rules.toString()}, o, e))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("strategies: " + missing.toAbsolutePath() + " does not exist");
        assertThat(LimiterCli.run(new String[] {"validate", rules.toString(), "extra.yml"}, o, e)).isEqualTo(2);
    }
}
