package dev.limiter.rules.yaml;

import java.util.List;
import java.util.Map;

/**
 * A node of the parsed rules file that remembers where it came from.
 *
 * <p>Every validation message must point at a line and column, so the file is read ({@link YamlTreeReader}) into
 * this small tree that keeps them; map entries keep file order.
 */
public record YamlNode(Kind kind, int line, int column, String text, Map<String, YamlEntry> entries, List<YamlNode> items) {

    public enum Kind {
        MAP("a mapping"), LIST("a list"), STRING("a string"), INT("an integer"), FLOAT("a decimal number"),
        BOOL("a boolean"), NULL("an empty value");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /** One key of a mapping, with the key's own position (unknown-key errors point at the key). */
    public record YamlEntry(String key, int line, int column, YamlNode value) {
    }

    public boolean is(Kind expected) {
        return kind == expected;
    }

    public YamlEntry entry(String key) {
        return entries.get(key);
    }

    public YamlNode get(String key) {
        YamlEntry entry = entries.get(key);
        return entry == null ? null : entry.value();
    }
}
