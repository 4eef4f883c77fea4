package dev.limiter.agent.cli;

/**
 * Text from the other JVM made safe to print on a terminal. Rule keys are client text, and the agent escapes
 * them already; this escapes again whatever could still drive the terminal (ESC and the other C0/C1 controls,
 * line and paragraph separators, bidirectional overrides, lone surrogates) as {@code \}{@code uXXXX}, so an agent
 * of another version, or a rules file's text, cannot move the cursor, recolour or rewrite the screen. Backslashes
 * are left alone (the agent's own escaping uses them; doubling them again would garble every escaped key).
 */
final class TerminalText {

    private TerminalText() {
    }

    /** One line of visible text. */
    static String line(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder safe = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escape = unsafe(text, i);
            if (escape && safe == null) {
                safe = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (escape) {
                safe.append(String.format("\\u%04x", (int) c));
            } else if (safe != null) {
                safe.append(c);
            }
        }
        return safe == null ? text : safe.toString();
    }

    static boolean unsafe(String text, int i) {
        char c = text.charAt(i);
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || c == '\u200e'
                || c == '\u200f' || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069')) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
        }
        return false;
    }
}
