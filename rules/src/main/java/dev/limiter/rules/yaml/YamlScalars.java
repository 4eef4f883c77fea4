package dev.limiter.rules.yaml;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Types a YAML scalar the way Jackson's YAML parser (2.x, default features, over SnakeYAML's YAML 1.1 resolver)
 * typed it, so that rules files read the same as when the rules were read through Jackson: a plain scalar
 * {@code 10} is an integer, {@code 1.5} a decimal, {@code true} / {@code yes} / {@code on} a boolean, {@code ~},
 * {@code null} and nothing an empty value, anything else a string; a quoted one is always a string. The
 * resolver's regular expressions are matched by hand ({@link YamlNumbers}): no regex engine loads to read a file.
 */
final class YamlScalars {

    private YamlScalars() {
    }

    /** The scalar as a node: typed if {@code plain}, a string if it was quoted. */
    static YamlNode node(String value, boolean plain, int line, int column) {
        if (!plain) {
            return string(value, line, column);
        }
        if (value.isEmpty() || value.equals("~") || value.equals("null") || value.equals("Null")
                || value.equals("NULL")) {
            return node(YamlNode.Kind.NULL, line, column, "");
        }
        if (YamlNumbers.isInteger(value)) {
            return integer(value, line, column);
        }
        if (YamlNumbers.isFloat(value)) {
            return node(YamlNode.Kind.FLOAT, line, column, value);
        }
        if (isBoolean(value)) {
            return bool(value, line, column);
        }
        return string(value, line, column);
    }

    /** The YAML 1.1 resolver's booleans: {@code yes|Yes|YES|no|No|NO|true|True|TRUE|false|...|off|Off|OFF}. */
    private static boolean isBoolean(String value) {
        switch (value) {
            case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On",
                    "ON", "off", "Off", "OFF":
                return true;
            default:
                return false;
        }
    }

    /** A resolved boolean as Jackson read it. */
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
        String small = smallInteger(digits, radix, negative);
        if (small != null) {
            return small;
        }
        try {
            BigInteger value = new BigInteger(digits, radix);
            return (negative ? value.negate() : value).toString();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The decimal text of ASCII {@code digits} short enough for a long (every value a rules file is likely to
     * hold), or null to leave it to {@link BigInteger}: BigInteger's first use initialises its caches and loads
     * MutableBigInteger and StrictMath, on the start-up path. Gives what BigInteger would (no leading zeros, -0
     * as 0); anything else (a sign, a non-ASCII digit, a digit outside the base) goes to BigInteger.
     */
    private static String smallInteger(String digits, int radix, boolean negative) {
        int length = digits.length();
        if (length == 0 || length > 15) { // 15 digits of base 16 stay below 2^60
            return null;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            char c = digits.charAt(i);
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : radix;
            if (digit >= radix) {
                return null;
            }
            value = value * radix + digit;
        }
        return Long.toString(negative ? -value : value);
    }

    private static YamlNode string(String value, int line, int column) {
        return node(YamlNode.Kind.STRING, line, column, value);
    }

    private static YamlNode node(YamlNode.Kind kind, int line, int column, String text) {
        return new YamlNode(kind, line, column, text, Map.of(), List.of());
    }
}
