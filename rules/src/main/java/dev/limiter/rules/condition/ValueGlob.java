package dev.limiter.rules.condition;

/**
 * A header value pattern of a condition: {@code *} stands for any run of characters, everything else is literal
 * and case-sensitive ({@code acme-*}, {@code *.internal}, {@code true}). The empty pattern {@code ''} means "the
 * header is absent". Matching allocates nothing and backtracks only to the last {@code *} (linear in practice:
 * patterns are the operator's, a few characters).
 */
public final class ValueGlob {

    private final String pattern;

    private ValueGlob(String pattern) {
        this.pattern = pattern;
    }

    public static ValueGlob compile(String pattern) {
        return new ValueGlob(pattern);
    }

    /** True if {@code value} (null: the header is absent) matches. */
    public boolean matches(String value) {
        if (pattern.isEmpty()) {
            return value == null;
        }
        if (value == null) {
            return false;
        }
        int p = 0;
        int v = 0;
        int star = -1;
        int resume = 0;
        int plen = pattern.length();
        int vlen = value.length();
        while (v < vlen) {
            if (p < plen && pattern.charAt(p) == '*') {
                star = p++;
                resume = v;
            } else if (p < plen && pattern.charAt(p) == value.charAt(v)) {
                p++;
                v++;
            } else if (star >= 0) {
                p = star + 1;
                v = ++resume;
            } else {
                return false;
            }
        }
        while (p < plen && pattern.charAt(p) == '*') {
            p++;
        }
        return p == plen;
    }

    @Override
    public String toString() {
        return pattern;
    }
}
