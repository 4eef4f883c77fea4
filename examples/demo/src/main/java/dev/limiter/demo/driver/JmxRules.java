package dev.limiter.demo.driver;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Reads the limiter's MBeans from the demo service the way JConsole does: the Attach API starts the service's
 * local JMX connector (no port, no password: same user, same machine) and the driver connects to it.
 *
 * <p>The names are the agent's: {@code dev.limiter:type=Limiter} (RulesFile, RuleCount, ReloadCount, Enabled)
 * and {@code dev.limiter:type=Rule,name=<id>} (Allowed, Rejected, WouldReject, Errors, ActiveKeys, Limit,
 * WindowMillis, Capacity, Strategy, Mode, Key, Source, Waited, WaitMillisTotal). The agent registers them
 * shortly after start-up (a {@code @Limit} rule once its class is loaded), so an empty answer is
 * "not yet", not an error.
 */
final class JmxRules implements AutoCloseable {

    static final String LIMITER = "dev.limiter:type=Limiter";
    static final String RULES = "dev.limiter:type=Rule,*";
    private static final String[] RULE_ATTRIBUTES = {"Strategy", "Mode", "Allowed", "Rejected", "WouldReject",
        "ActiveKeys", "Limit", "WindowMillis", "Capacity", "Limits", "Overrides", "Key", "Source", "Waited",
        "WaitMillisTotal"};

    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private JmxRules(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    /** Attaches to the JVM {@code pid} and connects to its local JMX connector. */
    static JmxRules attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        return new JmxRules(JMXConnectorFactory.connect(new JMXServiceURL(address)));
    }

    /** The rules' counters; empty while the agent has registered none. */
    List<RuleRow> read() throws Exception {
        Set<ObjectName> names = server.queryNames(new ObjectName(RULES), null);
        List<RuleRow> rows = new ArrayList<>();
        for (ObjectName name : names) {
            String id = name.getKeyProperty("name");
            if (id == null) {
                continue;
            }
            if (id.startsWith("\"")) {
                id = ObjectName.unquote(id);
            }
            AttributeList values = server.getAttributes(name, RULE_ATTRIBUTES);
            rows.add(new RuleRow(id, text(values, "Strategy"), text(values, "Mode"), number(values, "Allowed"),
                    number(values, "Rejected"), number(values, "WouldReject"), number(values, "ActiveKeys"),
                    number(values, "Limit"), number(values, "WindowMillis"), number(values, "Capacity"),
                    text(values, "Limits"), lines(values, "Overrides"), text(values, "Key"), text(values, "Source"),
                    number(values, "Waited"), number(values, "WaitMillisTotal")));
        }
        return rows;
    }

    /** One line about the limiter as a whole, e.g. {@code RuleCount=7 ReloadCount=0 Enabled=true}; "" if none. */
    String limiterLine() {
        try {
            AttributeList values = server.getAttributes(new ObjectName(LIMITER),
                    new String[] {"RuleCount", "ReloadCount", "Enabled"});
            StringBuilder line = new StringBuilder();
            for (Attribute attribute : values.asList()) {
                line.append(line.length() == 0 ? "" : "  ").append(attribute.getName()).append('=')
                        .append(attribute.getValue());
            }
            return line.toString();
        } catch (Exception e) {
            return "";
        }
    }

    private static String text(AttributeList values, String name) {
        for (Attribute attribute : values.asList()) {
            if (attribute.getName().equals(name) && attribute.getValue() != null) {
                return String.valueOf(attribute.getValue());
            }
        }
        return null;
    }

    private static List<String> lines(AttributeList values, String name) {
        for (Attribute attribute : values.asList()) {
            if (attribute.getName().equals(name) && attribute.getValue() instanceof String[] lines) {
                return List.of(lines);
            }
        }
        return List.of();
    }

    private static long number(AttributeList values, String name) {
        for (Attribute attribute : values.asList()) {
            if (attribute.getName().equals(name) && attribute.getValue() instanceof Number number) {
                return number.longValue();
            }
        }
        return -1;
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // the service is going away anyway
        }
    }
}
