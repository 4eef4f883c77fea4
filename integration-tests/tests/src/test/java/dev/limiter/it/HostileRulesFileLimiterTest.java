package dev.limiter.it;

import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile rules files against a real server (Jetty 12) with the packaged agent. The rules path is a named pipe
 * with no writer at start-up: premain runs on the application's main thread and must neither block on it nor
 * stop the server (it starts unprotected and says why). The pipe is then replaced by good rules, which the
 * watcher loads; then by a 50 MB file, an alias bomb and a directory in turn: each reload is refused and logged
 * with its reason, and the good rules stay enforced (the exhausted key keeps getting 429).
 */
class HostileRulesFileLimiterTest {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String PATH = "/api/items/hostile-file";
    private static final String GOOD = """
            version: 1
            rules:
              - id: hostile-file
                match: { http: { path: /api/items/hostile-file } }
                limit: 2
                window: 1h
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    @Test
    void aPipeAtStartUpDoesNotBlockAndBadReloadsKeepTheGoodRulesEnforced() throws Exception {
        RulesFile rules = RulesFile.create("rules.yml");
        Path file = rules.path();
        try {
            mkfifo(file);
            ForkedServer server = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA,
                    "HostileRulesFileLimiterTest-server", List.of(Agent.option(file))));
            server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml, invalid rules", PATIENCE);
            server.awaitOutput(Pattern.quote("rules.yml:1:1: the rules file is not a regular file (a named pipe,"
                    + " socket or device): not read, since reading it could block or never end"), PATIENCE);
            HttpApi http = server.http();
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = http.get(PATH);
                assertThat(response.statusCode()).as("unprotected: %s", describe(response)).isEqualTo(200);
            }

            rules.write(GOOD); // renamed over the pipe
            await("the good rules are live").atMost(PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> http.status(PATH) == 429);

            replaceWith(file, path -> {
                try (RandomAccessFile sparse = new RandomAccessFile(path.toFile(), "rw")) {
                    sparse.setLength(50L << 20);
                }
            });
            awaitRefused(server, "rules.yml:1:1: the file is larger than 1048576 bytes (1 MiB), the most a rules"
                    + " file may be (it has 52428800)");
            assertStillLimited(http);

            replaceWith(file, path -> Files.writeString(path, "version: 1\na: &a [lol, lol, lol]\nb: &b [*a, *a,"
                    + " *a]\nc: &c [*b, *b, *b]\nrules: *c\n"));
            awaitRefused(server, "rules.yml:2:4: YAML anchors (&a) are not supported in rules files: write the"
                    + " value out");
            assertStillLimited(http);

            Files.delete(file);
            Files.createDirectory(file);
            awaitRefused(server, "rules.yml:1:1: the rules file is a directory, not a file");
            assertStillLimited(http);
            Files.delete(file);
        } finally {
            Files.deleteIfExists(file);
            rules.delete();
        }
    }

    @FunctionalInterface
    private interface Content {
        void write(Path path) throws IOException;
    }

    /** Writes a sibling and renames it over the rules file, as an editor or a ConfigMap update would. */
    private static void replaceWith(Path file, Content content) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), ".rules", ".tmp");
        content.write(temp);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void awaitRefused(ForkedServer server, String error) {
        server.awaitOutput("limiter: rules not reloaded, keeping the 1 rules in force:\\R" + Pattern.quote(error),
                PATIENCE);
    }

    private static void assertStillLimited(HttpApi http) {
        HttpResponse<String> response = http.get(PATH);
        assertThat(response.statusCode()).as("the good rules still enforced: %s", describe(response))
                .isEqualTo(429);
    }

    private static void mkfifo(Path file) throws Exception {
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo on this system: " + e);
            return;
        }
        assumeTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo failed");
    }
}
