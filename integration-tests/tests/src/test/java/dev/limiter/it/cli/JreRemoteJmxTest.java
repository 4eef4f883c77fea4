package dev.limiter.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.Locations;
import dev.limiter.it.harness.RulesFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The command line over the network (docs/cli.md, "Over the network") against an application that runs on a
 * jlink image without {@code jdk.attach}, as in a distroless container: the image is built here with the test
 * JDK's jlink, the application ({@link JreApp}, one {@code method:} rule) runs on it with the agent and the JDK's
 * remote JMX connector on a free port, with a password file; {@code java -jar limiter.jar ... --jmx} runs on the
 * full JDK and on the image itself. What the commands print is checked against this JVM's own JMX reading and
 * against the application's calls. A second image without {@code java.logging} shows the agent's line on stderr.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JreRemoteJmxTest {

    private static final List<String> JRE_MODULES = List.of("java.base", "java.logging", "java.management",
            "java.management.rmi", "java.instrument", "java.naming", "jdk.httpserver", "jdk.management.agent");
    private static final String RULES = """
            version: 1
            reload: { watch: false }
            rules:
              - id: quotes
                match: { method: { class: dev.limiter.it.cli.JreApp, method: quote } }
                strategy: token-bucket
                limit: 3
                window: 1h
            """;
    private static final String USER = "ops";
    private static final String PASSWORD = "s3cret-jmx";
    private static final ObjectName QUOTES = name("dev.limiter:type=Rule,name=quotes");
    private static final ObjectName LIMITER = name("dev.limiter:type=Limiter");

    private Path dir;
    private Path image;
    private RulesFile rules;
    private Process app;
    private BufferedReader appOut;
    private PrintStream appIn;
    private String address;
    private JMXConnector jmx;
    private MBeanServerConnection mbeans;

    @BeforeAll
    void start() throws Exception {
        dir = Files.createTempDirectory(Path.of("target"), "jre-remote-jmx").toAbsolutePath();
        image = jlink(dir.resolve("jre"), JRE_MODULES);
        rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        Path passwords = secret(dir.resolve("jmxremote.password"), USER + " " + PASSWORD + "\n");
        Path access = secret(dir.resolve("jmxremote.access"), USER + " readwrite\n");
        int port = freePort();
        address = "127.0.0.1:" + port;
        app = new ProcessBuilder(java(image).toString(), "-Xmx64m",
                "-Dcom.sun.management.jmxremote.port=" + port, "-Dcom.sun.management.jmxremote.rmi.port=" + port,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Djava.rmi.server.hostname=127.0.0.1",
                "-Dcom.sun.management.jmxremote.ssl=false",
                "-Dcom.sun.management.jmxremote.password.file=" + passwords,
                "-Dcom.sun.management.jmxremote.access.file=" + access,
                "-Dlimiter.jmx.delay=0", Agent.option(rules.path()),
                "-cp", testClasses().toString(), JreApp.class.getName())
                .redirectErrorStream(true).start();
        appOut = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
        appIn = new PrintStream(app.getOutputStream(), true, StandardCharsets.UTF_8);
        assertThat(readUntil("CALLED ")).isEqualTo("CALLED allowed=3 rejected=2");
        assertThat(readUntil("READY")).isEqualTo("READY");
        jmx = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + address + "/jmxrmi"),
                Map.of(JMXConnector.CREDENTIALS, new String[] {USER, PASSWORD}));
        mbeans = jmx.getMBeanServerConnection();
        Awaitility.await("the limiter MBeans").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(QUOTES));
    }

    @AfterAll
    void stop() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
        if (app != null) {
            app.destroy();
            if (!app.waitFor(20, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
        if (rules != null) {
            rules.delete();
        }
    }

    @Test
    void theImageHasNoAttachApi() throws Exception {
        Process modules = new ProcessBuilder(java(image).toString(), "--list-modules").redirectErrorStream(true).start();
        String listed = new String(modules.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(modules.waitFor()).isZero();
        assertThat(listed).contains("java.logging").doesNotContain("jdk.attach");

        Cli.Run byPid = Cli.run(onImage("status", Long.toString(app.pid())));
        assertThat(byPid.exit()).as("%s", byPid).isEqualTo(8);
        assertThat(byPid.err()).contains("has no Attach API").contains("--jmx HOST:PORT");
    }

    @Test
    void statusOverJmxShowsTheRulesAndTheCounts() throws Exception {
        for (List<String> command : List.of(Cli.command("status", "--jmx", address, "--jmx-user", USER, "--json"),
                onImage("status", "--jmx", address, "--jmx-user", USER, "--json"))) {
            Cli.Run run = password(command, PASSWORD);
            assertThat(run.exit()).as("%s", run).isZero();
            @SuppressWarnings("unchecked")
            Map<String, Object> status = (Map<String, Object>) TestJson.parse(run.out());
            assertThat(((Number) status.get("pid")).longValue()).isEqualTo(app.pid());
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> ruleList = (List<Map<String, Object>>) status.get("rules");
            assertThat(ruleList).hasSize(1);
            Map<String, Object> quotes = ruleList.get(0);
            assertThat(quotes.get("id")).isEqualTo("quotes");
            assertThat(((Number) quotes.get("allowed")).longValue()).isEqualTo(jmxCount("Allowed"));
            assertThat(((Number) quotes.get("rejected")).longValue()).isEqualTo(jmxCount("Rejected"));
            assertThat(jmxCount("Allowed") + jmxCount("Rejected")).isGreaterThanOrEqualTo(5);
        }
        Cli.Run screen = password(Cli.command("status", "--jmx", address, "--jmx-user", USER), PASSWORD);
        assertThat(screen.exit()).as("%s", screen).isZero();
        assertThat(screen.out()).contains("in pid " + app.pid() + ": enabled").contains("quotes")
                .contains("method dev.limiter.it.cli.JreApp#quote");
    }

    @Test
    void steeringOverJmxTakesEffect() throws Exception {
        assertThat(call()).isEqualTo("rejected");
        Cli.Run dryRun = password(Cli.command("mode", "--jmx", address, "--jmx-user", USER, "quotes", "dry-run"),
                PASSWORD);
        assertThat(dryRun.exit()).as("%s", dryRun).isZero();
        assertThat(dryRun.out()).isEqualTo("rule quotes in pid " + app.pid() + ": mode dry-run, was enforce; the "
                + "rules file says enforce\n");
        assertThat(mbeans.getAttribute(QUOTES, "Mode")).isEqualTo("dry-run");
        long wouldReject = jmxCount("WouldReject");
        assertThat(call()).isEqualTo("allowed");
        assertThat(jmxCount("WouldReject")).isEqualTo(wouldReject + 1);

        Cli.Run enforce = password(onImage("mode", "--jmx", address, "--jmx-user", USER, "quotes", "file"), PASSWORD);
        assertThat(enforce.exit()).as("%s", enforce).isZero();
        assertThat(mbeans.getAttribute(QUOTES, "Mode")).isEqualTo("enforce");
        assertThat(call()).isEqualTo("rejected");

        Cli.Run disable = password(Cli.command("disable", "--jmx=" + address, "--jmx-user=" + USER), PASSWORD);
        assertThat(disable.exit()).as("%s", disable).isZero();
        assertThat(mbeans.getAttribute(LIMITER, "Enabled")).isEqualTo(false);
        assertThat(call()).isEqualTo("allowed");
        Cli.Run enable = password(Cli.command("enable", "--jmx", address, "--jmx-user", USER), PASSWORD);
        assertThat(enable.exit()).as("%s", enable).isZero();
        assertThat(mbeans.getAttribute(LIMITER, "Enabled")).isEqualTo(true);
        assertThat(call()).isEqualTo("rejected");
    }

    @Test
    void aWrongPasswordOrNoUserIsRefusedWithExitNine() {
        Cli.Run wrong = password(Cli.command("status", "--jmx", address, "--jmx-user", USER), "not-it");
        assertThat(wrong.exit()).as("%s", wrong).isEqualTo(9);
        assertThat(wrong.err()).contains("refused the connection").contains("LIMITER_JMX_PASSWORD");
        Cli.Run anonymous = Cli.run(Cli.command("disable", "--jmx", address));
        assertThat(anonymous.exit()).as("%s", anonymous).isEqualTo(9);
        assertThat(anonymous.err()).contains("--jmx-user NAME");
    }

    @Test
    void anImageWithoutJavaLoggingSaysOnStderrThatTheAgentDidNotStart() throws Exception {
        Path bare = jlink(dir.resolve("bare"), List.of("java.base", "java.instrument"));
        Process jvm = new ProcessBuilder(java(bare).toString(), "-Xmx32m", Agent.option(rules.path()), "-cp",
                testClasses().toString(), Sleeper.class.getName()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).as("the application starts").isEqualTo("READY");
            BufferedReader err = new BufferedReader(new InputStreamReader(jvm.getErrorStream(), StandardCharsets.UTF_8));
            assertThat(err.readLine()).startsWith("limiter: not started, the application runs unprotected: this "
                    + "Java runtime (" + bare + ") has no module java.logging");
        } finally {
            jvm.destroyForcibly();
        }
    }

    private String call() throws IOException {
        appIn.println("call");
        return appOut.readLine();
    }

    private long jmxCount(String attribute) throws Exception {
        return ((Number) mbeans.getAttribute(QUOTES, attribute)).longValue();
    }

    private static Cli.Run password(List<String> command, String password) {
        return Cli.run(command, Map.of("LIMITER_JMX_PASSWORD", password));
    }

    /** {@code java -jar limiter.jar ARGS} on the jlink image: a command line without the Attach API. */
    private List<String> onImage(String... args) {
        List<String> command = new ArrayList<>(List.of(java(image).toString(), "-jar", Agent.jar().toString()));
        command.addAll(List.of(args));
        return command;
    }

    private String readUntil(String prefix) throws IOException {
        for (String line = appOut.readLine(); line != null; line = appOut.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("the application exited before printing " + prefix);
    }

    /** A jlink image of {@code modules} made by the jlink next to the tests' JVM (17 in the first pass). */
    private static Path jlink(Path output, List<String> modules) throws Exception {
        Path jlink = Locations.java().getParent().resolve("jlink");
        Process process = new ProcessBuilder(jlink.toString(), "--add-modules", String.join(",", modules),
                "--no-header-files", "--no-man-pages", "--output", output.toString()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        return output;
    }

    private static Path java(Path image) {
        return image.resolve("bin").resolve("java");
    }

    private static Path testClasses() {
        try {
            return Path.of(JreApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JDK's JMX agent refuses password and access files that others can read. */
    private static Path secret(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectName name(String text) {
        try {
            return new ObjectName(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
