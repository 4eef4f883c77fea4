package dev.limiter.rules.match;

import java.util.ArrayList;
import java.util.List;

/**
 * One compiled Ant-style path pattern: {@code /api/**}, {@code /users/{id}/orders}, {@code /static/*.js}.
 *
 * <p>Syntax: the pattern starts with {@code /}; each segment is a literal, {@code *} (exactly one segment),
 * a segment glob with {@code *} / {@code ?} inside ({@code *.js}, {@code v?}), {@code {name}} (one segment,
 * captured for {@code path-param:name} keys) or {@code **} (any number of segments, including none). No regex.
 *
 * <p>Most patterns are "simple" (at most one {@code **}, and only at the end) and go into the {@link PathTrie};
 * the others are matched one by one here with the greedy wildcard algorithm, whose cost is bounded by
 * path segments times pattern segments (no exponential backtracking on hostile paths).
 */
public final class PathPattern {

    static final byte LITERAL = 0;
    static final byte ANY = 1;
    static final byte GLOB = 2;
    static final byte DEEP = 3;
    static final int MAX_SEGMENTS = 64;

    private final String text;
    private final byte[] kinds;
    private final String[] texts;
    private final String[] variables;

    private PathPattern(String text, byte[] kinds, String[] texts, String[] variables) {
        this.text = text;
        this.kinds = kinds;
        this.texts = texts;
        this.variables = variables;
    }

    /**
     * Compiles a pattern.
     *
     * @throws IllegalArgumentException with a message fit for a rules error
     */
    public static PathPattern compile(String pattern) {
        if (pattern.isEmpty() || pattern.charAt(0) != '/') {
            throw new IllegalArgumentException("path pattern '" + pattern + "' must start with '/'");
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c <= ' ' || c == '#' || c == ';' || c == '\\' || c == 0x7f) {
                throw new IllegalArgumentException("path pattern '" + pattern + "' contains "
                        + (c <= ' ' ? "a space or control character" : "'" + c + "'"));
            }
        }
        String body = pattern.substring(1);
        if (body.endsWith("/")) {
            body = body.substring(0, body.length() - 1); // a trailing slash is ignored, like in request paths
        }
        List<String> segments = new ArrayList<>();
        if (!body.isEmpty()) {
            for (String segment : body.split("/", -1)) {
                segments.add(segment);
            }
        }
        if (segments.size() > MAX_SEGMENTS) {
            throw new IllegalArgumentException("path pattern '" + pattern + "' has more than " + MAX_SEGMENTS
                    + " segments");
        }
        byte[] kinds = new byte[segments.size()];
        String[] texts = new String[segments.size()];
        String[] variables = new String[segments.size()];
        for (int i = 0; i < segments.size(); i++) {
            String segment = segments.get(i);
            if (segment.isEmpty()) {
                throw new IllegalArgumentException("path pattern '" + pattern + "' has an empty segment ('//')");
            }
            texts[i] = segment;
            if (segment.equals("**")) {
                kinds[i] = DEEP;
            } else if (segment.contains("**")) {
                throw new IllegalArgumentException("path pattern '" + pattern
                        + "': '**' must be a whole segment");
            } else if (segment.indexOf('{') >= 0 || segment.indexOf('}') >= 0) {
                String name = variable(pattern, segment);
                for (int j = 0; j < i; j++) {
                    if (name.equals(variables[j])) {
                        throw new IllegalArgumentException("path pattern '" + pattern + "' captures {" + name
                                + "} twice");
                    }
                }
                variables[i] = name;
                kinds[i] = ANY;
            } else if (segment.equals("*")) {
                kinds[i] = ANY;
            } else if (segment.indexOf('*') >= 0 || segment.indexOf('?') >= 0) {
                kinds[i] = GLOB;
            } else {
                kinds[i] = LITERAL;
            }
        }
        return new PathPattern(pattern, kinds, texts, variables);
    }

    private static String variable(String pattern, String segment) {
        if (segment.length() < 3 || segment.charAt(0) != '{' || segment.charAt(segment.length() - 1) != '}'
                || segment.indexOf('{', 1) >= 0 || segment.indexOf('}') != segment.length() - 1) {
            throw new IllegalArgumentException("path pattern '" + pattern + "': a path variable must be a whole"
                    + " segment like {name}, not '" + segment + "'");
        }
        String name = segment.substring(1, segment.length() - 1);
        if (name.indexOf(':') >= 0) {
            throw new IllegalArgumentException("path pattern '" + pattern + "': regular expressions in path"
                    + " variables are not supported ('" + segment + "'); use {" + name.substring(0,
                    name.indexOf(':')) + "}");
        }
        if (!isName(name)) {
            throw new IllegalArgumentException("path pattern '" + pattern + "': '" + name + "' is not a valid"
                    + " variable name (letters, digits, '_' and '-', starting with a letter)");
        }
        return name;
    }

    static boolean isName(String name) {
        if (name.isEmpty() || !Character.isLetter(name.charAt(0)) || name.charAt(0) > 0x7f) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The pattern as written. */
    public String text() {
        return text;
    }

    int size() {
        return kinds.length;
    }

    byte kind(int i) {
        return kinds[i];
    }

    String segment(int i) {
        return texts[i];
    }

    /** True if the pattern fits the trie: no {@code **}, or exactly one as the last segment. */
    boolean isSimple() {
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == DEEP && i != kinds.length - 1) {
                return false;
            }
        }
        return true;
    }

    /** True if the pattern captures {@code {name}}. */
    public boolean captures(String name) {
        for (String variable : variables) {
            if (name.equals(variable)) {
                return true;
            }
        }
        return false;
    }

    /** Full match; allocation-free. */
    boolean matches(String path) {
        return match(path, -1, null);
    }

    /**
     * The text of the segment captured as {@code {name}} when {@code path} matches, or null if it does not
     * match (or the pattern has no such variable). Allocates the returned substring only.
     */
    public String capture(String path, String name) {
        int index = -1;
        for (int i = 0; i < variables.length; i++) {
            if (name.equals(variables[i])) {
                index = i;
            }
        }
        if (index < 0) {
            return null;
        }
        int[] bounds = new int[2];
        return match(path, index, bounds) ? path.substring(bounds[0], bounds[1]) : null;
    }

    /**
     * Greedy wildcard matching with segments as the unit: on a mismatch go back to just after the last
     * {@code **} and let it swallow one more segment. Captures after that {@code **} are re-assigned on the
     * retry, so the recorded bounds belong to the final match.
     */
    private boolean match(String path, int captureIndex, int[] bounds) {
        int p = 0;
        int s = PathSegments.next(path, 0);
        int starP = -1;
        int starS = -1;
        int length = path.length();
        while (s < length) {
            int end = PathSegments.textEnd(path, s);
            if (p < kinds.length && kinds[p] == DEEP) {
                starP = p++;
                starS = s;
                continue;
            }
            if (p < kinds.length && segmentMatches(p, path, s, end)) {
                if (p == captureIndex) {
                    bounds[0] = s;
                    bounds[1] = end;
                }
                p++;
                s = PathSegments.next(path, PathSegments.after(path, end));
                continue;
            }
            if (starP < 0) {
                return false;
            }
            p = starP + 1;
            starS = PathSegments.next(path, PathSegments.after(path, PathSegments.textEnd(path, starS)));
            s = starS;
        }
        while (p < kinds.length && kinds[p] == DEEP) {
            p++;
        }
        return p == kinds.length;
    }

    boolean segmentMatches(int p, String path, int start, int end) {
        switch (kinds[p]) {
            case LITERAL:
                return PathSegments.equals(path, start, end, texts[p]);
            case ANY:
                return true;
            case GLOB:
                return PathSegments.globMatches(texts[p], path, start, end);
            default:
                return false;
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
