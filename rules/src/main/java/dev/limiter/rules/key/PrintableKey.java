package dev.limiter.rules.key;

/**
 * A key as it may be shown to a person: in a log line, a JMX attribute, a console table.
 *
 * <p>Keys are client text. A header or parameter value may hold CR and LF (a forged log line after the real one:
 * log injection), NUL, terminal escape sequences (ESC), C1 controls, Unicode line and paragraph separators,
 * bidirectional overrides (text that displays in another order than it reads), or a lone surrogate (what a container's decoder can leave of invalid bytes). Every such character becomes
 * {@code \}{@code uXXXX} and a backslash becomes {@code \\}, so the printed form is one line of visible text and
 * still tells distinct keys apart (the escaping is reversible). A key with nothing to escape is returned as it
 * is, without allocation.
 */
public final class PrintableKey {

    private PrintableKey() {
    }

    /** {@code key} with control characters, separators, lone surrogates and backslashes escaped; null stays null. */
    public static String of(String key) {
        if (key == null) {
            return null;
        }
        int length = key.length();
        int first = -1;
        for (int i = 0; i < length; i++) {
            if (needsEscape(key, i)) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return key;
        }
        StringBuilder text = new StringBuilder(length + 16).append(key, 0, first);
        for (int i = first; i < length; i++) {
            char c = key.charAt(i);
            if (c == '\\') {
                text.append("\\\\");
            } else if (needsEscape(key, i)) {
                text.append("\\u");
                String hex = Integer.toHexString(c);
                for (int pad = hex.length(); pad < 4; pad++) {
                    text.append('0');
                }
                text.append(hex);
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }

    private static boolean needsEscape(String key, int i) {
        char c = key.charAt(i);
        if (c < 0x20 || c == '\\' || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                || c == '\u200e' || c == '\u200f' || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069')) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(key.charAt(i - 1));
        }
        return false;
    }
}
