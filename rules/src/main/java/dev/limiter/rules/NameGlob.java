package dev.limiter.rules;

/**
 * A glob over Java class or method names, for {@code jaxrs:} and {@code method:} rules, matched on names only.
 *
 * <p>Names only, because the agent decides what to instrument while classes are being defined: loading a class
 * to ask about it there would change the application's class-loading order. {@code *} matches any run of
 * characters within one package segment (no {@code .}), {@code **} any run including dots (sub-packages),
 * {@code ?} one character other than a dot; everything else is literal ({@code $} for nested classes too).
 * {@link #literalPrefix()} and {@link #isExact()} let the agent build a cheap name pre-filter
 * ({@code nameStartsWith}, {@code named}) before this full match runs.
 */
public final class NameGlob {

    private static final char STAR = '*';
    private static final char QUESTION = '?';

    private final String pattern;
    private final String literalPrefix;
    private final boolean exact;

    private NameGlob(String pattern) {
        this.pattern = pattern;
        int wildcard = firstWildcard(pattern);
        this.exact = wildcard < 0;
        this.literalPrefix = wildcard < 0 ? pattern : pattern.substring(0, wildcard);
    }

    /**
     * Compiles a glob.
     *
     * @throws IllegalArgumentException with a message fit for a rules error if the glob is malformed
     */
    public static NameGlob compile(String glob) {
        String problem = problem(glob);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new NameGlob(glob);
    }

    /** Why {@code glob} is not a valid name glob, or null if it is. */
    static String problem(String glob) {
        if (glob == null || glob.isEmpty()) {
            return "a name glob must not be empty";
        }
        if (glob.contains("***")) {
            return "'***' is not a glob: use '*' (within a package) or '**' (any depth)";
        }
        if (glob.startsWith(".") || glob.endsWith(".") || glob.contains("..")) {
            return "'" + glob + "' has an empty name segment";
        }
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c != '.' && c != STAR && c != QUESTION && !Character.isJavaIdentifierPart(c)) {
                return "'" + glob + "' contains '" + c + "': only Java name characters, '.', '*', '**' and '?'"
                        + " are allowed";
            }
        }
        return null;
    }

    /** True if {@code name} (a binary class name like {@code com.acme.Outer$Inner}, or a method name) matches. */
    public boolean matches(String name) {
        if (exact) {
            return pattern.equals(name);
        }
        if (!name.startsWith(literalPrefix)) {
            return false;
        }
        return matches(literalPrefix.length(), name, literalPrefix.length());
    }

    /** The glob as written. */
    public String pattern() {
        return pattern;
    }

    /** The text before the first wildcard: every matching name starts with it (empty if the glob starts wild). */
    public String literalPrefix() {
        return literalPrefix;
    }

    /** True if the glob has no wildcard: it matches exactly one name. */
    public boolean isExact() {
        return exact;
    }

    /**
     * The cheap first test: false means {@link #matches} is false too (the name lacks the literal prefix), so
     * the agent can reject most class names with one {@code startsWith}.
     */
    public boolean couldMatch(String name) {
        return name.startsWith(literalPrefix);
    }

    /**
     * Dynamic programming over (pattern position, name position): linear in their product whatever the number
     * of wildcards, so no glob can make class loading crawl. Runs when classes load, never per request.
     */
    private boolean matches(int from, String name, int nameFrom) {
        int length = name.length() - nameFrom;
        boolean[] row = new boolean[length + 1];
        boolean[] next = new boolean[length + 1];
        row[0] = true;
        int p = from;
        while (p < pattern.length()) {
            char c = pattern.charAt(p);
            boolean deep = c == STAR && p + 1 < pattern.length() && pattern.charAt(p + 1) == STAR;
            next[0] = c == STAR && row[0];
            for (int j = 1; j <= length; j++) {
                char actual = name.charAt(nameFrom + j - 1);
                if (c == STAR) {
                    next[j] = row[j] || next[j - 1] && (deep || actual != '.');
                } else if (c == QUESTION) {
                    next[j] = row[j - 1] && actual != '.';
                } else {
                    next[j] = row[j - 1] && actual == c;
                }
            }
            boolean[] swap = row;
            row = next;
            next = swap;
            p += deep ? 2 : 1;
        }
        return row[length];
    }

    private static int firstWildcard(String glob) {
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == STAR || c == QUESTION) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return pattern;
    }
}
