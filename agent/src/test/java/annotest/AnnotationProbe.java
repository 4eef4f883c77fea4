package annotest;

import dev.limiter.api.RateLimitExceededException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Run by the packaged-jar test with {@code -javaagent:limiter.jar=rules=FILE} where FILE does not exist yet: calls
 * the annotated methods and prints what was admitted, then writes FILE with a rule that overrides one annotation,
 * waits for the reload (JMX), calls again, rewrites FILE without it and calls again. One {@code key=value} per line.
 */
public final class AnnotationProbe {

    private AnnotationProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path rules = Path.of(args[0]);
        Object mailer = new Mailer();
        print("send admitted", admitted(5, () -> ((Mailer) mailer).send("a@x")));
        print("other admitted", admitted(5, () -> ((Mailer) mailer).other("a@x")));
        try {
            ((Mailer) mailer).send("a@x");
            print("rejected", "none");
        } catch (RateLimitExceededException e) {
            print("rejected", e.getClass().getName() + " rule=" + e.ruleId() + " retry-positive="
                    + (e.retryAfterMillis() > 0 && e.retryAfterMillis() <= 3_600_000));
        }
        Object reports = new Reports();
        print("daily admitted", admitted(5, () -> ((Reports) reports).daily()));
        print("export admitted", admitted(5, () -> ((Reports) reports).export()));
        Object bad = new BadWindow();
        print("bad admitted", admitted(5, () -> ((BadWindow) bad).send()));

        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Object overridden = new Overridden();
        print("annotation admitted", admitted(5, () -> ((Overridden) overridden).call("k1")));
        ObjectName name = new ObjectName("dev.limiter:type=Rule,name=anno-override");
        await(server, name, 1L);
        print("source before", server.getAttribute(name, "Source"));

        Files.writeString(rules, """
                version: 1
                rules:
                  - id: anno-override
                    match: { method: { class: annotest.Overridden, method: call } }
                    key: arg:0
                    limit: 3
                    window: 1h
                """);
        await(server, name, 3L);
        print("override admitted", admitted(5, () -> ((Overridden) overridden).call("k2")));
        print("source override", server.getAttribute(name, "Source"));

        Files.writeString(rules, "version: 1\nrules: []\n");
        await(server, name, 1L);
        print("annotation again admitted", admitted(5, () -> ((Overridden) overridden).call("k3")));
        print("source after", server.getAttribute(name, "Source"));
        print("send-mbean source", server.getAttribute(new ObjectName("dev.limiter:type=Rule,name=anno-send"),
                "Source"));
    }

    /** Waits (at most 30 s) until the rule's MBean is there with this limit. */
    private static void await(MBeanServer server, ObjectName name, long limit) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (server.isRegistered(name) && Long.valueOf(limit).equals(server.getAttribute(name, "Limit"))) {
                return;
            }
            Thread.sleep(50);
        }
        print("timeout", name + " limit " + limit);
    }

    private static int admitted(int calls, Callable<?> call) throws Exception {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            try {
                call.call();
                admitted++;
            } catch (RateLimitExceededException e) {
                // rejected
            }
        }
        return admitted;
    }

    private static void print(String key, Object value) {
        System.out.println(key + "=" + value);
        System.out.flush();
    }
}
