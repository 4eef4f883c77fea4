package dev.limiter.rules.yaml;

import dev.limiter.rules.text.Suggestions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Typed access to one mapping of the rules file that reports, instead of throwing, every wrong type and every
 * unknown key (with a "did you mean" among the keys allowed at that place).
 *
 * <p>Getters return null (or the given default) when a value is missing or wrong, after recording the
 * problem, so validation goes on and the user sees all problems of a file at once.
 */
public final class Fields {

    private final YamlNode map;
    private final String where;
    private final Problems problems;

    private Fields(YamlNode map, String where, Problems problems) {
        this.map = map;
        this.where = where;
        this.problems = problems;
    }

    /**
     * Fields of {@code node}, which must be a mapping ({@code null} after a problem otherwise); reports unknown
     * keys right away.
     */
    public static Fields of(YamlNode node, String where, Problems problems, String... allowed) {
        if (!node.is(YamlNode.Kind.MAP)) {
            problems.add(node, where + " must be a mapping (got " + node.kind().description() + ")");
            return null;
        }
        List<String> known = Arrays.asList(allowed);
        for (YamlNode.YamlEntry entry : node.entries().values()) {
            if (!known.contains(entry.key())) {
                String suggestion = Suggestions.closest(entry.key(), known);
                problems.add(entry, "unknown key '" + shorten(entry.key()) + "' in " + where
                        + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)"));
            }
        }
        return new Fields(node, where, problems);
    }

    public YamlNode node() {
        return map;
    }

    public boolean has(String key) {
        return map.entry(key) != null;
    }

    public YamlNode get(String key) {
        return map.get(key);
    }

    /** A string value, or null if absent or of another type (reported). */
    public String string(String key) {
        YamlNode value = map.get(key);
        if (value == null) {
            return null;
        }
        if (!value.is(YamlNode.Kind.STRING)) {
            wrongType(key, value, "a string");
            return null;
        }
        return value.text();
    }

    /** A string that must be there. */
    public String requiredString(String key) {
        if (!has(key)) {
            missing(key);
            return null;
        }
        return string(key);
    }

    /** An integer value within a long, or {@code absent} if missing, or null if wrong (reported). */
    public Long integer(String key, Long absent) {
        YamlNode value = map.get(key);
        if (value == null) {
            return absent;
        }
        if (!value.is(YamlNode.Kind.INT)) {
            wrongType(key, value, "a whole number");
            return null;
        }
        try {
            return Long.parseLong(value.text());
        } catch (NumberFormatException tooLarge) {
            problems.add(value, key + " is too large: " + shorten(value.text()));
            return null;
        }
    }

    /** A boolean, {@code absent} if missing, or null if wrong (reported). */
    public Boolean bool(String key, Boolean absent) {
        YamlNode value = map.get(key);
        if (value == null) {
            return absent;
        }
        if (!value.is(YamlNode.Kind.BOOL)) {
            wrongType(key, value, "true or false");
            return null;
        }
        return Boolean.valueOf(value.text());
    }

    /** A list of strings, or null if absent or wrong (reported). */
    public List<YamlNode> stringList(String key) {
        YamlNode value = map.get(key);
        if (value == null) {
            return null;
        }
        if (!value.is(YamlNode.Kind.LIST)) {
            wrongType(key, value, "a list");
            return null;
        }
        List<YamlNode> items = new ArrayList<>();
        for (YamlNode item : value.items()) {
            if (!item.is(YamlNode.Kind.STRING)) {
                problems.add(item, key + " entries must be strings (got " + item.kind().description() + ")");
            } else {
                items.add(item);
            }
        }
        return items;
    }

    /** One of the given spellings, or null if absent or not one of them (reported with a suggestion). */
    public String choice(String key, String... allowed) {
        String text = string(key);
        if (text == null) {
            return null;
        }
        for (String option : allowed) {
            if (option.equals(text)) {
                return text;
            }
        }
        String suggestion = Suggestions.closest(text, allowed);
        problems.add(map.get(key), key + " must be one of " + String.join(", ", allowed) + ", not '" + text + "'"
                + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)"));
        return null;
    }

    public void missing(String key) {
        problems.add(map, where + " has no '" + key + "'");
    }

    void wrongType(String key, YamlNode value, String expected) {
        problems.add(value, key + " must be " + expected + " (got " + value.kind().description()
                + (value.is(YamlNode.Kind.STRING) ? " '" + shorten(value.text()) + "'" : "") + ")");
    }

    public static String shorten(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}
