package dev.limiter.agent.jmx;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The names the limiter registers under: {@code dev.limiter:type=Limiter} and
 * {@code dev.limiter:type=Rule,name=<id>}. Rule ids of a valid file need no quoting today, but the id is
 * quoted with {@link ObjectName#quote} whenever it holds a character an unquoted value cannot, so a future
 * relaxation of the id syntax cannot produce an invalid or pattern name.
 */
final class ObjectNames {

    static final String DOMAIN = "dev.limiter";

    private ObjectNames() {
    }

    static ObjectName limiter() {
        return name(DOMAIN + ":type=Limiter");
    }

    static ObjectName rule(String id) {
        return name(DOMAIN + ":type=Rule,name=" + (needsQuoting(id) ? ObjectName.quote(id) : id));
    }

    /** Every rule MBean: {@code dev.limiter:type=Rule,*}. */
    static ObjectName allRules() {
        return name(DOMAIN + ":type=Rule,*");
    }

    static boolean needsQuoting(String value) {
        if (value.isEmpty()) {
            return true;
        }
        for (int i = 0; i < value.length(); i++) {
            switch (value.charAt(i)) {
                case ',', '=', ':', '"', '*', '?', '\n', '\\' -> {
                    return true;
                }
                default -> {
                }
            }
        }
        return false;
    }

    private static ObjectName name(String text) {
        try {
            return new ObjectName(text);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a valid object name: " + text, e);
        }
    }
}
