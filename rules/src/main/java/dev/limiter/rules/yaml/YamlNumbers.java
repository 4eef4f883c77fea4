package dev.limiter.rules.yaml;

/**
 * Which plain scalars YAML 1.1 calls numbers: the integer and float expressions of SnakeYAML's {@code Resolver}
 * (the resolver under Jackson's YAML parser, which typed the rules before this reader), matched by hand so that
 * reading a rules file loads no regex engine. {@code YamlTreeReaderEquivalenceTest} checks them against it.
 */
final class YamlNumbers {

    private YamlNumbers() {
    }

    /**
     * {@code [-+]?0b_*[0-1][0-1_]* | [-+]?0_*[0-7][0-7_]* | [-+]?(?:0|[1-9][0-9_]*) | [-+]?0x_*[0-9a-fA-F][0-9a-fA-F_]*
     * | [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+}.
     */
    static boolean isInteger(String s) {
        int i = sign(s);
        int n = s.length();
        if (i == n) {
            return false;
        }
        if (s.charAt(i) == '0') {
            if (i + 1 == n) {
                return true;
            }
            char next = s.charAt(i + 1);
            if (next == 'b') {
                return digits(s, skipUnderscores(s, i + 2), 2);
            }
            if (next == 'x') {
                return digits(s, skipUnderscores(s, i + 2), 16);
            }
            return digits(s, skipUnderscores(s, i + 1), 8);
        }
        if (s.charAt(i) < '1' || s.charAt(i) > '9') {
            return false;
        }
        int end = run(s, i + 1);
        return end == n || (s.charAt(end) == ':' && sexagesimal(s, end) == n);
    }

    /**
     * {@code [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)? | [-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
     * | [-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)? | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(?:inf|Inf|INF)
     * | \.(?:nan|NaN|NAN)}.
     */
    static boolean isFloat(String s) {
        int n = s.length();
        if (s.equals(".nan") || s.equals(".NaN") || s.equals(".NAN")) {
            return true;
        }
        int i = sign(s);
        if (i == n) {
            return false;
        }
        if (s.charAt(i) == '.') {
            String rest = s.substring(i + 1);
            if (rest.equals("inf") || rest.equals("Inf") || rest.equals("INF")) {
                return true;
            }
            int end = run(s, i + 1);
            return end > i + 1 && exponent(s, end);
        }
        if (!isDigit(s.charAt(i))) {
            return false;
        }
        int end = run(s, i + 1);
        if (end == n) {
            return false;
        }
        char c = s.charAt(end);
        if (c == '.') {
            return exponent(s, run(s, end + 1));
        }
        if (c == 'e' || c == 'E') {
            return exponent(s, end);
        }
        if (c == ':') {
            int after = sexagesimal(s, end);
            return after > 0 && after < n && s.charAt(after) == '.' && run(s, after + 1) == n;
        }
        return false;
    }

    /** True if {@code s} from {@code at} is empty or {@code [eE][-+]?[0-9]+} to its end. */
    private static boolean exponent(String s, int at) {
        int n = s.length();
        if (at == n) {
            return true;
        }
        char c = s.charAt(at);
        if (c != 'e' && c != 'E') {
            return false;
        }
        int i = at + 1;
        if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        if (i == n) {
            return false;
        }
        for (; i < n; i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Where {@code (?::[0-5]?[0-9])+} starting at {@code at} (a colon) ends, or -1 if it does not match. */
    private static int sexagesimal(String s, int at) {
        int n = s.length();
        int i = at;
        int matched = -1;
        while (i < n && s.charAt(i) == ':') {
            int j = i + 1;
            if (j < n && isDigit(s.charAt(j))) {
                if (j + 1 < n && isDigit(s.charAt(j + 1)) && s.charAt(j) <= '5') {
                    j += 2;
                } else {
                    j += 1;
                }
            } else {
                return matched;
            }
            matched = j;
            i = j;
        }
        return matched;
    }

    private static int sign(String s) {
        return !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
    }

    /** Where a run of {@code [0-9_]} starting at {@code from} ends. */
    private static int run(String s, int from) {
        int i = from;
        while (i < s.length() && (isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        return i;
    }

    private static int skipUnderscores(String s, int from) {
        int i = from;
        while (i < s.length() && s.charAt(i) == '_') {
            i++;
        }
        return i;
    }

    /** True if {@code s} from {@code from} is one digit of {@code radix} followed by digits and underscores. */
    private static boolean digits(String s, int from, int radix) {
        if (from == s.length() || s.charAt(from) > 0x7F || Character.digit(s.charAt(from), radix) < 0) {
            return false;
        }
        for (int i = from + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '_' && (c > 0x7F || Character.digit(c, radix) < 0)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
