package dev.limiter.rules.compile;

import dev.limiter.core.clock.Clock;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles the values of one {@code @Limit} annotation into a {@code method:} rule with the rules file's own
 * code, so an annotation accepts exactly what a rule accepts and a bad value reads the same.
 *
 * <p>How: the values are written as the text of a one-rule rules file, one attribute per line, and that text goes
 * through {@link RuleSetLoader} (parse, every compile section, the strategy's own check, live state). A problem's
 * line then says which attribute it concerns. Nothing here knows the annotation's class or bytecode: the agent
 * reads the values from the class file and hands them in by attribute name.
 *
 * <p>Attribute names are the annotation's ({@code onError}); {@link #ATTRIBUTES} maps them to the rule's keys.
 * {@code store} is not an attribute: an annotated rule keeps its state in this JVM, and a rules-file rule with the
 * same id (which replaces it) may put it in Redis.
 */
public final class AnnotationRule {

    /** The annotation's attributes, in the order they are written, with the rule key each one is. */
    public static final Map<String, String> ATTRIBUTES = attributes();

    /** The binary name of the exception rejected calls throw by default: an unset {@code throwClass}. */
    private static final String DEFAULT_THROW = Rule.DEFAULT_THROW;

    private final String id;
    private final Rule rule;
    private final List<String> problems;
    private final String values;

    private AnnotationRule(String id, Rule rule, List<String> problems, String values) {
        this.id = id;
        this.rule = rule;
        this.problems = problems;
        this.values = values;
    }

    /**
     * Compiles the annotation on {@code className#methodName}.
     *
     * @param values attribute name to value ({@code String}, a {@code Number}, or the binary class name for
     *               {@code throwClass}); attributes left at their defaults may be absent, or present with the
     *               default ({@code ""}, {@code 0})
     * @param clock  what the rule's limiter reads time from (null: the shared coarse clock)
     */
    public static AnnotationRule compile(String className, String methodName, Map<String, Object> values,
            Clock clock) {
        if (!values.containsKey("limit")) {
            // limit has no default in the annotation, so only a caller's mistake leaves it out
            throw new IllegalArgumentException("@Limit values without 'limit'");
        }
        String id = text(values.get("id"));
        if (id.isEmpty()) {
            id = defaultId(className, methodName);
        }
        Map<Integer, String> lines = new LinkedHashMap<>();
        StringBuilder rule = new StringBuilder();
        for (Map.Entry<String, String> attribute : ATTRIBUTES.entrySet()) {
            String name = attribute.getKey();
            Object value = values.get(name);
            if (isUnset(name, value)) {
                continue;
            }
            lines.put(5 + lines.size(), name);
            rule.append("    ").append(attribute.getValue()).append(": ")
                    .append(number(name, value) ? text(value) : quoted(text(value))).append('\n');
        }
        String text = "version: 1\nrules:\n  - id: " + quoted(id) + "\n    match: { method: { class: "
                + quoted(className) + ", method: " + quoted(methodName) + " } }\n" + rule;
        try {
            Rule compiled = RuleSetLoader.parse(text, "@Limit", null, clock, LimiterFactory.LOCAL).rules().get(0);
            return new AnnotationRule(id, compiled, List.of(), rule.toString());
        } catch (RulesException e) {
            List<String> problems = new ArrayList<>();
            for (RulesError error : e.errors()) {
                String attribute = attributeAt(error, lines);
                problems.add(attribute + ": " + error.message() + (attribute.equals("id")
                        && text(values.get("id")).isEmpty() ? " (the default id: set id = \"...\")" : ""));
            }
            return new AnnotationRule(id, null, List.copyOf(problems), rule.toString());
        }
    }

    /**
     * Whether {@code value} is written as a YAML number: a numeric attribute, or {@code cost}'s text when it is a
     * whole number ({@code cost} is a String to take {@code "arg:N"} too). Digits only, so quoting stays the
     * rule for everything else.
     */
    private static boolean number(String name, Object value) {
        if (value instanceof Number) {
            return true;
        }
        String text = text(value);
        if (!name.equals("cost") || text.isEmpty() || text.length() > 18) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code com.acme.Mailer.send} for {@code com.acme.Mailer#send}; a nested class's {@code $} becomes {@code .}. */
    public static String defaultId(String className, String methodName) {
        return className.replace('$', '.') + "." + methodName;
    }

    /** The rule's id (given or default). */
    public String id() {
        return id;
    }

    /** The compiled rule with its own live state, or null if the annotation is invalid ({@link #problems()}). */
    public Rule rule() {
        return rule;
    }

    /** Each problem as {@code attribute: message}, e.g. {@code window: window '5 minutes' is not a duration...}. */
    public List<String> problems() {
        return problems;
    }

    /**
     * The annotation's values as rule text, without id and match: two annotations with the same id and equal
     * values are one rule.
     */
    public String values() {
        return values;
    }

    /**
     * The attribute a problem concerns: the one written on its line; for the rule as a whole (line 3, where the
     * id is too), the id if the message is about it, else the attribute whose rule key the message quotes
     * ("has no 'window'").
     */
    private static String attributeAt(RulesError error, Map<Integer, String> lines) {
        String name = lines.get(error.line());
        if (name != null) {
            return name;
        }
        String message = error.message();
        if (message.contains("rule id")) {
            return "id";
        }
        for (Map.Entry<String, String> attribute : ATTRIBUTES.entrySet()) {
            if (message.contains("'" + attribute.getValue() + "'")) {
                return attribute.getKey();
            }
        }
        return error.line() == 3 ? "id" : "@Limit";
    }

    private static boolean isUnset(String name, Object value) {
        if (value == null) {
            return true;
        }
        if (name.equals("throwClass")) {
            return DEFAULT_THROW.equals(value);
        }
        if (name.equals("limit")) {
            return false;
        }
        return value instanceof Number number ? number.longValue() == 0 : text(value).isEmpty();
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    /** A YAML double-quoted scalar: the value exactly, whatever it holds. */
    private static String quoted(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || c == 0x85 || c == 0x2028 || c == 0x2029) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static Map<String, String> attributes() {
        Map<String, String> names = new LinkedHashMap<>();
        names.put("limit", "limit");
        names.put("window", "window");
        names.put("key", "key");
        names.put("strategy", "strategy");
        names.put("capacity", "capacity");
        names.put("mode", "mode");
        names.put("onError", "on-error");
        names.put("maxKeys", "max-keys");
        names.put("onFull", "on-full");
        names.put("throwClass", "throw");
        names.put("onLimit", "on-limit");
        names.put("maxWait", "max-wait");
        names.put("cost", "cost");
        return java.util.Collections.unmodifiableMap(names);
    }
}
