package dev.limiter.rules.match;

/**
 * Walks the segments of a request path in place (indices into the string), so matching allocates nothing.
 *
 * <p>Normalisation that closes cheap bypasses: empty segments are skipped ({@code //api} and {@code /api/} are
 * {@code /api}), and a segment's {@code ;matrix} parameters are not part of its text ({@code /api;x=1/users}
 * is {@code /api/users}). The agent is expected to pass a decoded path with dot-segments resolved (the
 * servlet path plus path info); {@code ..} is not interpreted here.
 */
final class PathSegments {

    private PathSegments() {
    }

    /** Index of the first character of the next non-empty segment at or after {@code from}; length if none. */
    static int next(String path, int from) {
        int length = path.length();
        int i = from;
        while (i < length) {
            char c = path.charAt(i);
            if (c == '/') {
                i++;
            } else if (c == ';') {
                // a segment that is only ";params" has empty text: skip it
                int slash = path.indexOf('/', i);
                i = slash < 0 ? length : slash;
            } else {
                return i;
            }
        }
        return length;
    }

    /** End of the segment's text (exclusive): the next {@code ;} or {@code /}, or the end. */
    static int textEnd(String path, int start) {
        int length = path.length();
        for (int i = start; i < length; i++) {
            char c = path.charAt(i);
            if (c == '/' || c == ';') {
                return i;
            }
        }
        return length;
    }

    /** Where the following segment search resumes: the {@code /} after this segment, or the end. */
    static int after(String path, int textEnd) {
        if (textEnd < path.length() && path.charAt(textEnd) == ';') {
            int slash = path.indexOf('/', textEnd);
            return slash < 0 ? path.length() : slash;
        }
        return textEnd;
    }

    /** True if {@code [start, end)} of {@code path} equals {@code literal}. */
    static boolean equals(String path, int start, int end, String literal) {
        return literal.length() == end - start && path.regionMatches(start, literal, 0, end - start);
    }

    /** String.hashCode of {@code [start, end)}, computed in place. */
    static int hash(String path, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            h = 31 * h + path.charAt(i);
        }
        return h;
    }

    /**
     * Glob match of one segment's text against a segment glob with {@code *} (any run) and {@code ?} (one
     * character): the classic two-pointer algorithm, linear-times-pattern, no allocation.
     */
    static boolean globMatches(String glob, String path, int start, int end) {
        int g = 0;
        int s = start;
        int starG = -1;
        int starS = -1;
        int globLength = glob.length();
        while (s < end) {
            if (g < globLength) {
                char c = glob.charAt(g);
                if (c == '*') {
                    starG = g++;
                    starS = s;
                    continue;
                }
                if (c == '?' || c == path.charAt(s)) {
                    g++;
                    s++;
                    continue;
                }
            }
            if (starG < 0) {
                return false;
            }
            g = starG + 1;
            s = ++starS;
        }
        while (g < globLength && glob.charAt(g) == '*') {
            g++;
        }
        return g == globLength;
    }
}
