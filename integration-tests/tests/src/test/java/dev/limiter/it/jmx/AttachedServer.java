package dev.limiter.it.jmx;

import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * A test application with the agent in its own JVM (Jetty 12 unless a test names another {@link TestApp}), its
 * rules file, and this JVM attached to it over JMX as JConsole would be: what the JMX and metrics tests share.
 * Ready once every {@code ready} MBean (one the rules register) is.
 */
public final class AttachedServer implements AutoCloseable {

    private static final Duration JMX_TIMEOUT = Duration.ofSeconds(60);

    public final RulesFile rules;
    public final ForkedServer server;
    public final HttpApi http;
    public final AttachedJmx jmx;
    public final MBeanServerConnection mbeans;
    private final String marker;

    private AttachedServer(RulesFile rules, ForkedServer server, AttachedJmx jmx, String marker) {
        this.rules = rules;
        this.server = server;
        this.http = server.http();
        this.jmx = jmx;
        this.mbeans = jmx.connection();
        this.marker = marker;
    }

    /** Jetty 12 with the agent and nothing else. */
    public static AttachedServer start(ServerLogs servers, String name, String rulesText, ObjectName... ready) {
        return start(servers, TestApp.JETTY12_JAKARTA, name, rulesText, List.of(), List.of(), ready);
    }

    /**
     * {@code app} with the agent.
     *
     * @param name names the server's log ({@code name-server.log})
     * @param jvmOptions more JVM options, before the agent's (e.g. a second {@code -javaagent})
     * @param agentOptions the agent's arguments after the rules file (e.g. {@code prometheus=127.0.0.1:0})
     */
    public static AttachedServer start(ServerLogs servers, TestApp app, String name, String rulesText,
            List<String> jvmOptions, List<String> agentOptions, ObjectName... ready) {
        RulesFile rules = RulesFile.create("rules.yml");
        rules.write(rulesText);
        String marker = AttachedJmx.newMarker();
        List<String> options = new ArrayList<>();
        options.add(AttachedJmx.markerOption(marker));
        options.add("-Dlimiter.jmx.delay=0");
        options.addAll(jvmOptions);
        options.add(Agent.option(rules.path(), agentOptions.toArray(String[]::new)));
        ForkedServer server = servers.track(ForkedServer.start(app, name + "-server", options));
        AttachedServer attached = new AttachedServer(rules, server, AttachedJmx.attach(marker), marker);
        await("the limiter MBeans are registered").atMost(JMX_TIMEOUT).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    for (ObjectName each : ready) {
                        if (!attached.mbeans.isRegistered(each)) {
                            return false;
                        }
                    }
                    return true;
                });
        return attached;
    }

    /** The server's process id (for {@code jcmd}). */
    public long pid() {
        return AttachedJmx.pidOf(marker);
    }

    public static ObjectName name(String text) {
        try {
            return new ObjectName(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    public static ObjectName rule(String id) {
        return name("dev.limiter:type=Rule,name=" + id);
    }

    @Override
    public void close() {
        jmx.close();
        server.close();
        rules.delete();
    }
}
