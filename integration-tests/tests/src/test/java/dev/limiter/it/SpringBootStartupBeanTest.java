package dev.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.spi.SlowToLoadStrategy;
import dev.limiter.it.spi.StrategyJar;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code method:} rule on a Spring bean's method that the bean calls from {@code @PostConstruct}, while the
 * application starts (Spring Boot 3 web, {@code StartupClient}): the calls are checked against the rules from the
 * first one, although the agent parses its rules on its own thread as the application starts. A custom strategy
 * jar holds up the parse until the bean's class has loaded and waits for the rules (on this machine a plain parse
 * usually ends before Spring loads its beans' classes); once without it, as deployed.
 * Limit 1 an hour: exactly one admission then rejections; 5 a second, waiting (leaky bucket, capacity 1): 11 calls
 * take two seconds. Class path and Boot's fat jar (its nested-jar class loader).
 */
class SpringBootStartupBeanTest {

    private static final Pattern CALLS = Pattern.compile("STARTUP CALLS: ([A-Z ]+) in (\\d+) ms");
    private static final String WAITING = "limiter: dev.limiter.it.app.boot.StartupClient waits for the rules";

    private static final String RULE = """
            version: 1
            rules:
              - id: startup-fetch
                match: { method: { class: dev.limiter.it.app.boot.StartupClient, method: fetch } }
            """;

    private static final String REJECT = """
                limit: 1
                window: 1h
            """;

    private static final String WAIT = """
                strategy: leaky-bucket
                capacity: 1
                limit: 5
                window: 1s
                on-limit: wait
                max-wait: 10s
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private final List<RulesFile> files = new ArrayList<>();

    @AfterEach
    void deleteRules() {
        files.forEach(RulesFile::delete);
    }

    /**
     * Starts the app with {@code rules}, waits for the bean's line; returns its outcomes, its milliseconds and the
     * server's output. With {@code holdRules}, the rules come in only once the bean's class has loaded and is
     * waiting for them (a custom strategy jar holds up the parse until the test releases it).
     */
    private String[] startupCalls(TestApp app, String name, String rules, int calls, boolean holdRules)
            throws IOException {
        RulesFile file = RulesFile.create("rules.yml");
        files.add(file);
        file.write(rules);
        List<String> options = new ArrayList<>(List.of("-Dlimiter.it.startupCalls=" + calls));
        Path release = file.path().resolveSibling("release");
        if (holdRules) {
            Path jar = StrategyJar.write(SlowToLoadStrategy.class, file.path().resolveSibling("slow-strategy.jar"));
            options.add("-Dlimiter.it.strategyRelease=" + release);
            options.add("-Dlimiter.debug=true"); // logs that the bean's class waits for the rules
            options.add(Agent.option(file.path(), "strategies=" + jar));
        } else {
            options.add(Agent.option(file.path()));
        }
        try (ForkedServer server = servers.track(ForkedServer.launch(app, name, options))) {
            if (holdRules) {
                server.awaitOutput(Pattern.quote(WAITING), ForkedServer.START_TIMEOUT);
                Files.createFile(release);
            }
            String line = server.awaitOutput(CALLS.pattern(), ForkedServer.START_TIMEOUT);
            Matcher matcher = CALLS.matcher(line);
            assertThat(matcher.find()).as(server.output()).isTrue();
            return new String[] {matcher.group(1), matcher.group(2), server.output()};
        }
    }

    @Test
    void aRejectingRuleHoldsFromTheBeansFirstCall() throws IOException {
        String[] held = startupCalls(TestApp.SPRING_BOOT3_WEB, "SpringBootStartupBeanTest-reject-held", RULE + REJECT,
                5, true);
        assertThat(held[0]).as(held[2]).isEqualTo("OK REJ REJ REJ REJ");

        String[] plain = startupCalls(TestApp.SPRING_BOOT3_WEB, "SpringBootStartupBeanTest-reject", RULE + REJECT,
                5, false);
        assertThat(plain[0]).as(plain[2]).isEqualTo("OK REJ REJ REJ REJ");
    }

    @Test
    void aWaitingRulePacesTheBeansFirstCalls() throws IOException {
        String[] paced = startupCalls(TestApp.SPRING_BOOT3_WEB, "SpringBootStartupBeanTest-wait-held", RULE + WAIT,
                11, true);
        assertThat(paced[0]).isEqualTo("OK OK OK OK OK OK OK OK OK OK OK");
        assertThat(Long.parseLong(paced[1])).as(paced[2]).isGreaterThanOrEqualTo(1_950);
    }

    @Test
    void onBootsFatJarTooItsNestedJarLoaderWaitsForTheRules() throws IOException {
        String[] fat = startupCalls(TestApp.SPRING_BOOT3_FAT_JAR, "SpringBootStartupBeanTest-fat-jar", RULE + REJECT,
                3, true);
        assertThat(fat[0]).as(fat[2]).isEqualTo("OK REJ REJ");
    }
}
