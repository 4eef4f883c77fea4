package dev.limiter.rules.yaml;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Types a YAML scalar the way Jackson's YAML parser (2.x, default features) typed it, so that rules files read
 * the same as when the rules were read through Jackson: an untagged plain scalar by SnakeYAML's YAML 1.1
 * resolver ({@code 10} an integer, {@code 1.5} a decimal, {@code true} / {@code yes} / {@code on} a boolean,
 * {@code ~} and nothing an empty value), a quoted one always a string; the standard tags {@code !!str},
 * {@code !!int}, {@code !!float}, {@code !!bool} and {@code !!null} as named; any other tag a string, and
 * {@code !!binary} unsupported.
 */
final class YamlScalars {

    private static final Resolver RESOLVER = new Resolver();
    private static final String STANDARD_TAG = "tag:yaml.org,2002:";

    private YamlScalars() {
    }

    /** The scalar as a node, or null if rules files do not support its type ({@code !!binary}). */
    static YamlNode node(ScalarEvent scalar, int line, int column) {
        String value = scalar.getValue();
        String tag = scalar.getTag();
        if (tag == null || tag.equals("!")) {
            Tag resolved = RESOLVER.resolve(NodeId.scalar, value, scalar.getImplicit().canOmitTagInPlainScalar());
            if (resolved == Tag.INT) {
                return integer(value, line, column);
            }
            if (resolved == Tag.FLOAT) {
                return node(YamlNode.Kind.FLOAT, line, column, value);
            }
            if (resolved == Tag.BOOL) {
                return bool(value, line, column);
            }
            if (resolved == Tag.NULL) {
                return node(YamlNode.Kind.NULL, line, column, "");
            }
            return node(YamlNode.Kind.STRING, line, column, value);
        }
        if (tag.startsWith(STANDARD_TAG)) {
            tag = tag.substring(STANDARD_TAG.length());
            int comma = tag.indexOf(',');
            if (comma >= 0) {
                tag = tag.substring(0, comma);
            }
        }
        switch (tag) {
            case "binary":
                return null;
            case "bool":
                return bool(value, line, column);
            case "int":
                return value.isEmpty() ? string(value, line, column) : integer(value, line, column);
            case "float":
                return node(value.isEmpty() ? YamlNode.Kind.STRING : YamlNode.Kind.FLOAT, line, column, value);
            case "null":
                return value.isEmpty() ? string(value, line, column) : node(YamlNode.Kind.NULL, line, column, "");
            default:
                return string(value, line, column);
        }
    }

    /** YAML 1.1 booleans as Jackson accepted them ({@code y}, {@code no}, {@code ON}...); anything else a string. */
    private static YamlNode bool(String value, int line, int column) {
        Boolean parsed = switch (value.length()) {
            case 1 -> "yY".indexOf(value.charAt(0)) >= 0 ? Boolean.TRUE
                    : "nN".indexOf(value.charAt(0)) >= 0 ? Boolean.FALSE : null;
            case 2 -> "no".equalsIgnoreCase(value) ? Boolean.FALSE : "on".equalsIgnoreCase(value) ? Boolean.TRUE : null;
            case 3 -> "yes".equalsIgnoreCase(value) ? Boolean.TRUE
                    : "off".equalsIgnoreCase(value) ? Boolean.FALSE : null;
            case 4 -> "true".equalsIgnoreCase(value) ? Boolean.TRUE : null;
            case 5 -> "false".equalsIgnoreCase(value) ? Boolean.FALSE : null;
            default -> null;
        };
        return parsed == null ? string(value, line, column)
                : node(YamlNode.Kind.BOOL, line, column, parsed.toString());
    }

    /**
     * An integer in decimal ({@code 0x1F}, {@code 0b101} and {@code 1_000} are YAML integers too); the resolver
     * also calls {@code 1:30} (base 60) an integer, which Jackson, and so this, reads as a string.
     */
    private static YamlNode integer(String value, int line, int column) {
        String decimal = looksDecimalOrPrefixed(value) ? integerText(value) : null;
        return decimal == null ? string(value, line, column) : node(YamlNode.Kind.INT, line, column, decimal);
    }

    private static boolean looksDecimalOrPrefixed(String value) {
        int length = value.length();
        int i = value.charAt(0) == '-' || value.charAt(0) == '+' ? 1 : 0;
        if (i == length) {
            return false;
        }
        if (value.charAt(i) == '0') {
            if (i + 1 == length) {
                return true;
            }
            char next = value.charAt(i + 1);
            return "bBxX_".indexOf(next) >= 0 || (next >= '0' && next <= '9');
        }
        for (; i < length; i++) {
            char c = value.charAt(i);
            if ((c < '0' || c > '9') && c != '_') {
                return false;
            }
        }
        return true;
    }

    /**
     * The integer in decimal, or null if its digits are not digits of its base (only possible with an explicit
     * {@code !!int} tag). Absurdly long digit strings are left as written, unparsed, and reported as too large
     * later.
     */
    static String integerText(String raw) {
        if (raw.length() > 40) {
            return raw;
        }
        String digits = raw.replace("_", "");
        boolean negative = digits.startsWith("-");
        if (negative || digits.startsWith("+")) {
            digits = digits.substring(1);
        }
        int radix = 10;
        if (digits.length() > 2 && digits.charAt(0) == '0') {
            char prefix = Character.toLowerCase(digits.charAt(1));
            radix = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 10;
            if (radix != 10) {
                digits = digits.substring(2);
            }
        }
        try {
            BigInteger value = new BigInteger(digits, radix);
            return (negative ? value.negate() : value).toString();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static YamlNode string(String value, int line, int column) {
        return node(YamlNode.Kind.STRING, line, column, value);
    }

    private static YamlNode node(YamlNode.Kind kind, int line, int column, String text) {
        return new YamlNode(kind, line, column, text, Map.of(), List.of());
    }
}
