package dev.limiter.it.harness;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Rewrites a forked server's rules file and returns once the agent runs the new rules: every version carries a
 * marker rule of its own id ({@code live-v<N>}, on a path nothing requests), which the limiter MBean's
 * {@code RuleIds} lists once the reload is done.
 */
public final class LiveRules {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final RulesFile file;
    private final AttachedJmx jmx;

    public LiveRules(RulesFile file, AttachedJmx jmx) {
        this.file = file;
        this.jmx = jmx;
    }

    /**
     * Writes {@code header} (the top of the file, up to {@code rules:}), the marker rule, then {@code entries}
     * (rule entries indented by two spaces, or empty), and waits until they are live.
     */
    public void apply(String header, String entries) {
        int version = file.nextVersion();
        String marker = "live-v" + version;
        file.write(header + "rules:\n  - id: " + marker + "\n    match: { http: { path: /never/" + marker
                + " } }\n    limit: 1\n    window: 1h\n" + entries);
        ObjectName limiter = limiterName();
        await("rules version " + version + " is live").atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> Arrays.asList((String[]) jmx.connection().getAttribute(limiter, "RuleIds"))
                        .contains(marker));
    }

    private static ObjectName limiterName() {
        try {
            return new ObjectName("dev.limiter:type=Limiter");
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }
}
