package dev.limiter.agent.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The limiter's MBeans in another JVM, by name only ({@code dev.limiter:type=Limiter|Rule|Store}): the command
 * line reads and steers them as any JMX console would, with none of the agent's classes on the other side, so an
 * agent of another version answers too (attributes it lacks read as absent, not as errors).
 */
final class LimiterMBeans {

    static final ObjectName LIMITER = name("dev.limiter:type=Limiter");
    static final ObjectName STORE = name("dev.limiter:type=Store");
    static final ObjectName ALL_RULES = name("dev.limiter:type=Rule,*");

    private final MBeanServerConnection server;

    LimiterMBeans(MBeanServerConnection server) {
        this.server = server;
    }

    boolean limiterRegistered() throws IOException {
        return server.isRegistered(LIMITER);
    }

    boolean storeRegistered() throws IOException {
        return server.isRegistered(STORE);
    }

    /**
     * The rule MBeans by rule id, in the rules file's order when the agent reports it ({@code RuleIds}), the
     * others after them by id.
     */
    List<Rule> rules() throws IOException, JMException {
        TreeMap<String, ObjectName> byId = new TreeMap<>();
        Set<ObjectName> names = server.queryNames(ALL_RULES, null);
        for (ObjectName each : names) {
            String id = each.getKeyProperty("name");
            if (id != null) {
                byId.put(id.startsWith("\"") ? ObjectName.unquote(id) : id, each);
            }
        }
        List<Rule> rules = new ArrayList<>();
        Object ordered = get(LIMITER, "RuleIds");
        if (ordered instanceof String[] ids) {
            for (String id : ids) {
                ObjectName each = byId.remove(id);
                if (each != null) {
                    rules.add(new Rule(id, each));
                }
            }
        }
        byId.forEach((id, each) -> rules.add(new Rule(id, each)));
        return rules;
    }

    /** The rule of that id, or null. */
    Rule rule(String id) throws IOException, JMException {
        for (Rule each : rules()) {
            if (each.id().equals(id)) {
                return each;
            }
        }
        return null;
    }

    /** The named attributes that exist; absent ones are left out, as {@code getAttributes} does. */
    Values read(ObjectName name, String... attributes) throws IOException, JMException {
        return new Values(server.getAttributes(name, attributes));
    }

    /** One attribute, or null when the MBean lacks it. */
    Object get(ObjectName name, String attribute) throws IOException, JMException {
        return read(name, attribute).get(attribute);
    }

    void set(ObjectName name, String attribute, Object value) throws IOException, JMException {
        server.setAttribute(name, new Attribute(attribute, value));
    }

    Object invoke(ObjectName name, String operation) throws IOException, JMException {
        return server.invoke(name, operation, new Object[0], new String[0]);
    }

    /** A rule MBean and the id it is registered for. */
    record Rule(String id, ObjectName name) {
    }

    /** Attribute values by name. */
    static final class Values {

        private final AttributeList list;

        Values(AttributeList list) {
            this.list = list;
        }

        Object get(String attribute) {
            for (Attribute each : list.asList()) {
                if (each.getName().equals(attribute)) {
                    return each.getValue();
                }
            }
            return null;
        }

        String text(String attribute) {
            Object value = get(attribute);
            return value == null ? "" : String.valueOf(value);
        }

        long number(String attribute) {
            return get(attribute) instanceof Number number ? number.longValue() : RuleStatus.UNKNOWN;
        }

        boolean flag(String attribute) {
            return Boolean.TRUE.equals(get(attribute));
        }
    }

    static ObjectName name(String text) {
        try {
            return new ObjectName(text);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
