package dev.limiter.demo.service;

/** Reduces client text to letters, digits, '-' and '/' (at most 40), so the demo can echo it into JSON as is. */
final class JsonText {

    private static final int MAX = 40;

    private JsonText() {
    }

    static String clean(String value) {
        StringBuilder clean = new StringBuilder();
        for (int i = 0; i < value.length() && clean.length() < MAX; i++) {
            char c = value.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '/') {
                clean.append(c);
            }
        }
        return clean.toString();
    }
}
