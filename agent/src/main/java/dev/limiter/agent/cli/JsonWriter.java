package dev.limiter.agent.cli;

/**
 * A minimal JSON writer for {@code status --json}: objects, arrays, strings, numbers, booleans and null, commas
 * placed by the writer. Strings are escaped per RFC 8259: quote, backslash and every control character below
 * U+0020, plus DEL, the C1 controls, U+2028/U+2029 (line breaks to JavaScript) and lone surrogates (not valid
 * UTF-8) as {@code \}{@code uXXXX}, so client-controlled keys cannot break out of their string or the document.
 * No library: the agent jar carries nothing it does not need, and this is all the CLI needs.
 */
final class JsonWriter {

    private final StringBuilder out = new StringBuilder();
    /** Per open container: whether it already has a member (a comma goes before the next). */
    private final boolean[] hasMember = new boolean[32];
    private int depth;
    private boolean afterName;

    JsonWriter beginObject() {
        return open('{');
    }

    JsonWriter endObject() {
        return close('}');
    }

    JsonWriter beginArray() {
        return open('[');
    }

    JsonWriter endArray() {
        return close(']');
    }

    JsonWriter name(String name) {
        separate();
        string(name);
        out.append(':');
        afterName = true;
        return this;
    }

    JsonWriter value(String value) {
        separate();
        if (value == null) {
            out.append("null");
        } else {
            string(value);
        }
        return this;
    }

    JsonWriter value(long value) {
        separate();
        out.append(value);
        return this;
    }

    JsonWriter value(boolean value) {
        separate();
        out.append(value);
        return this;
    }

    /** A count the agent may not have reported: negative (unknown) is written as null. */
    JsonWriter count(long value) {
        if (value < 0) {
            separate();
            out.append("null");
            return this;
        }
        return value(value);
    }

    JsonWriter nullValue() {
        separate();
        out.append("null");
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private JsonWriter open(char bracket) {
        separate();
        out.append(bracket);
        if (depth == hasMember.length) {
            throw new IllegalStateException("JSON nested deeper than " + hasMember.length);
        }
        hasMember[depth++] = false;
        return this;
    }

    private JsonWriter close(char bracket) {
        depth--;
        out.append(bracket);
        return this;
    }

    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) {
            if (hasMember[depth - 1]) {
                out.append(',');
            }
            hasMember[depth - 1] = true;
        }
    }

    private void string(String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || loneSurrogate(text, i)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static boolean loneSurrogate(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
        }
        return false;
    }
}
