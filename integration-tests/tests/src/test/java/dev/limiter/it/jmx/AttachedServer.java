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
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * A Jetty 12 server with the agent in its own JVM, its rules file, and this JVM attached to it over JMX as
 * JConsole would be: what the JMX tests share. Ready once {@code ready} (an MBean the rules register) is.
 */
final class AttachedServer implements AutoCloseable {

    private static final Duration JMX_TIMEOUT = Duration.ofSeconds(60);

    final RulesFile rules;
    final ForkedServer server;
    final HttpApi http;
    final AttachedJmx jmx;
    final MBeanServerConnection mbeans;

    private AttachedServer(RulesFile rules, ForkedServer server, AttachedJmx jmx) {
        this.rules = rules;
        this.server = server;
        this.http = server.http();
        this.jmx = jmx;
        this.mbeans = jmx.connection();
    }

    static AttachedServer start(ServerLogs servers, String name, String rulesText, ObjectName... ready) {
        RulesFile rules = RulesFile.create("rules.yml");
        rules.write(rulesText);
        String marker = AttachedJmx.newMarker();
        ForkedServer server = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA, name + "-server", List.of(
                AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        AttachedServer attached = new AttachedServer(rules, server, AttachedJmx.attach(marker));
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

    static ObjectName name(String text) {
        try {
            return new ObjectName(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    static ObjectName rule(String id) {
        return name("dev.limiter:type=Rule,name=" + id);
    }

    @Override
    public void close() {
        jmx.close();
        server.close();
        rules.delete();
    }
}
