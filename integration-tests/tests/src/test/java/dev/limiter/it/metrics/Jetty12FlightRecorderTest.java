package dev.limiter.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.jmx.AttachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JFR events end to end (docs/metrics.md): a Jetty 12 server started as usual (no JFR option), a recording
 * started from outside with {@code jcmd PID JFR.start settings=docs/limiter.jfc}, 429s and reloads, then
 * {@code JFR.dump} read back with {@code jdk.jfr.consumer}. Traffic before the recording starts must not show:
 * the events are off until a recording enables them. The same server is started with the agent argument
 * {@code prometheus=}, which this test checks wins over the file.
 */
class Jetty12FlightRecorderTest {

    private static final Path SETTINGS = Path.of("../../docs/limiter.jfc").toAbsolutePath().normalize();
    private static final String RULES = """
            version: 1
            reload: { watch: false }
            metrics: { prometheus: { listen: '127.0.0.1:1' } }
            rules:
              - id: limited
                match: { http: { path: /api/items/limited } }
                key: header:X-Client
                limit: 2
                window: 1h
              - id: dry
                match: { http: { path: /api/items/dry } }
                limit: 1
                window: 1h
                mode: dry-run
                strategy: token-bucket
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    @TempDir
    Path dir;

    private AttachedServer attached;
    private RulesFile rules;
    private ForkedServer server;
    private long pid;

    @BeforeEach
    void start() {
        attached = AttachedServer.start(servers, TestApp.JETTY12_JAKARTA, "Jetty12FlightRecorderTest", RULES,
                List.of(), List.of("prometheus=127.0.0.1:0"), AttachedServer.name("dev.limiter:type=Limiter"));
        rules = attached.rules;
        server = attached.server;
        pid = attached.pid();
    }

    @AfterEach
    void stop() {
        if (attached != null) {
            attached.close();
        }
    }

    @Test
    void rejectionsAndReloadsAreRecordedOnlyWhileARecordingAsksForThem() throws Exception {
        assertThat(SETTINGS).as("the shipped settings file").isRegularFile();
        HttpApi http = server.http();
        MBeanServerConnection mbeans = attached.mbeans;
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        for (int i = 0; i < 4; i++) {
            http.status("/api/items/limited", "X-Client", "before"); // 2 rejections nobody records
        }

        Jcmd.run(pid, "JFR.start", "name=limiter", "settings=" + SETTINGS);
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            statuses.add(http.status("/api/items/limited", "X-Client", "c\"1"));
        }
        assertThat(statuses).containsExactly(200, 200, 429, 429, 429);
        assertThat(http.status("/api/items/dry")).isEqualTo(200);
        assertThat(http.status("/api/items/dry")).as("dry-run: over the limit, let through").isEqualTo(200);
        rules.write("version: 1\nrules: not-a-list\n");
        assertThat((String) mbeans.invoke(limiter, "reload", new Object[0], new String[0])).startsWith("not reloaded");
        rules.write(RULES);
        assertThat((String) mbeans.invoke(limiter, "reload", new Object[0], new String[0])).startsWith("reloaded");
        Path recording = dir.resolve("limiter.jfr");
        Jcmd.run(pid, "JFR.dump", "name=limiter", "filename=" + recording);
        Jcmd.run(pid, "JFR.stop", "name=limiter");

        List<RecordedEvent> rejections = new ArrayList<>();
        List<RecordedEvent> reloads = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            String type = event.getEventType().getName();
            if (type.equals("dev.limiter.Rejection")) {
                rejections.add(event);
            } else if (type.equals("dev.limiter.Reload")) {
                reloads.add(event);
            } else {
                assertThat(type).as("only the limiter's events are enabled by its settings")
                        .doesNotStartWith("dev.limiter.");
            }
        }

        assertThat(rejections).hasSize(4);
        // a recording keeps each thread's events in its own buffer: the file's order across threads is not the
        // order of the requests, so the events are told apart by rule
        List<RecordedEvent> limited = rejections.stream().filter(e -> e.getString("rule").equals("limited")).toList();
        List<RecordedEvent> dryRun = rejections.stream().filter(e -> e.getString("rule").equals("dry")).toList();
        assertThat(limited).hasSize(3);
        assertThat(dryRun).hasSize(1);
        for (RecordedEvent event : limited) {
            assertThat(event.getString("key")).as("escaped as JMX shows keys").isEqualTo("c\"1");
            assertThat(event.getString("strategy")).isEqualTo("fixed-window");
            assertThat(event.getBoolean("dryRun")).isFalse();
            assertThat(event.getDuration("retryAfter")).as("the window ends within the hour")
                    .isPositive().isLessThanOrEqualTo(Duration.ofHours(1));
            assertThat(event.getEventType().getCategoryNames()).containsExactly("Limiter");
        }
        RecordedEvent dry = dryRun.get(0);
        assertThat(dry.getString("rule")).isEqualTo("dry");
        assertThat(dry.getString("key")).as("the default key: global, one budget").isEmpty();
        assertThat(dry.getString("strategy")).isEqualTo("token-bucket");
        assertThat(dry.getBoolean("dryRun")).isTrue();

        assertThat(reloads).hasSize(2);
        assertThat(reloads.get(0).getBoolean("ok")).isFalse();
        assertThat(reloads.get(0).getString("error")).contains("rules.yml:2:").contains("rules must be a list");
        assertThat(reloads.get(0).getInt("ruleCount")).as("the rules that stay in force").isEqualTo(2);
        assertThat(reloads.get(1).getBoolean("ok")).isTrue();
        assertThat(reloads.get(1).getString("error")).isEmpty();
        assertThat(reloads.get(1).getInt("ruleCount")).isEqualTo(2);
        assertThat(reloads.get(1).getDuration("loadTime")).isPositive();

        // the agent argument's address won over the file's 127.0.0.1:1
        server.awaitOutput("the agent argument prometheus=127\\.0\\.0\\.1:0 wins over the rules file's"
                + " metrics\\.prometheus\\.listen 127\\.0\\.0\\.1:1", Duration.ofSeconds(10));
        assertThat(MetricsScraper.of(server).text()).contains("limiter_decisions_total{rule=\"limited\","
                + "outcome=\"rejected\"} 5\n");
        assertThat(Files.size(recording)).isPositive();
    }
}
