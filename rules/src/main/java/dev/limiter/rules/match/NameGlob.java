package dev.limiter.rules.match;

/**
 * A glob over Java class or method names, for {@code jaxrs:} and {@code method:} rules, matched on names only.
 *
 * <p>Names only, because the agent decides what to instrument while classes are being defined: loading a class
 * to ask about it there would change the application's class-loading order. {@code *} matches any run of
 * characters within one package segment (no {@code .}), {@code **} (a whole segment) any number of segments
 * ({@code com.acme.**.*Service} matches {@code com.acme.OrderService} and {@code com.acme.a.b.OrderService};
 * {@code com.acme.**} matches every class under {@code com.acme}),
 * {@code ?} one character other than a dot; everything else is literal ({@code $} for nested classes too).
 * {@link #internalPrefix()} lets the agent reject most classes being loaded on their internal name before this
 * full match runs ({@code RuleSet.mayNameInternalClass}).
 */
public final class NameGlob {

    private static final char STAR = '*';
    private static final char QUESTION = '?';

    private final String pattern;
    private final String literalPrefix;
    private final boolean exact;
    private final String[] segments;
    private final boolean[] deep;

    private NameGlob(String pattern) {
        this.pattern = pattern;
        this.segments = pattern.split("\\.", -1);
        this.deep = new boolean[segments.length];
        for (int i = 0; i < segments.length; i++) {
            deep[i] = segments[i].equals("**");
        }
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
    public static String problem(String glob) {
        if (glob == null || glob.isEmpty()) {
            return "a name glob must not be empty";
        }
        if (glob.contains("***")) {
            return "'***' is not a glob: use '*' (within a package) or '**' (any depth)";
        }
        if (glob.startsWith(".") || glob.endsWith(".") || glob.contains("..")) {
            return "'" + glob + "' has an empty name segment";
        }
        for (String segment : glob.split("\\.", -1)) {
            if (segment.contains("**") && !segment.equals("**")) {
                return "'" + glob + "': '**' must be a whole name segment, like com.acme.**.*Service";
            }
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
        return name.startsWith(literalPrefix) && matchSegments(name);
    }

    /** The glob as written. */
    public String pattern() {
        return pattern;
    }

    /** The text before the first wildcard: every matching name starts with it (empty if the glob starts wild). */
    public String literalPrefix() {
        return literalPrefix;
    }

    /**
     * {@link #literalPrefix} in the form of an internal class name ({@code com/acme/Mail} for {@code com.acme.Mail*}):
     * every internal name ({@code a/b/C}, as a class file transformer is given it) of a class this glob matches
     * starts with it. A name glob holds no {@code /}, so the two forms map one to one.
     */
    public String internalPrefix() {
        return literalPrefix.replace('.', '/');
    }

    /** True if the glob has no wildcard: it matches exactly one name. */
    public boolean isExact() {
        return exact;
    }

    /**
     * Greedy wildcard matching with dot-separated name segments as the unit (the path matcher's algorithm): on a
     * mismatch, go back to just after the last {@code **} and let it swallow one more segment. Linear in name
     * segments times glob segments whatever the number of wildcards, and allocation-free, so it is fit for
     * {@code RuleSet.matchMethod} on the request path as well as for class loading.
     */
    private boolean matchSegments(String name) {
        int length = name.length();
        int p = 0;
        int s = 0;
        int starP = -1;
        int starS = -1;
        while (s <= length) {
            int end = segmentEnd(name, s);
            if (p < segments.length && deep[p]) {
                starP = p++;
                starS = s;
                continue;
            }
            if (p < segments.length && PathSegments.globMatches(segments[p], name, s, end)) {
                p++;
                s = end + 1;
                continue;
            }
            if (starP < 0) {
                return false;
            }
            p = starP + 1;
            starS = segmentEnd(name, starS) + 1;
            s = starS;
        }
        while (p < segments.length && deep[p]) {
            p++;
        }
        return p == segments.length;
    }

    private static int segmentEnd(String name, int start) {
        int dot = name.indexOf('.', start);
        return dot < 0 ? name.length() : dot;
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
