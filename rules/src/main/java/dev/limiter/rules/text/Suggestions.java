package dev.limiter.rules.text;

/**
 * "Did you mean": the closest known word by edit distance, for unknown keys, strategies and key kinds.
 */
public final class Suggestions {

    private Suggestions() {
    }

    /** The candidate nearest to {@code word}, or null if none is close enough to be a plausible typo. */
    public static String closest(String word, Iterable<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String lower = word.toLowerCase(java.util.Locale.ROOT);
        for (String candidate : candidates) {
            String candidateLower = candidate.toLowerCase(java.util.Locale.ROOT);
            if (lower.length() >= 3 && candidateLower.startsWith(lower)) {
                return candidate; // an abbreviation: "fixed" for "fixed-window"
            }
            int distance = distance(lower, candidateLower);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        int allowed = Math.max(2, word.length() / 3);
        return best != null && bestDistance <= allowed && bestDistance < word.length() ? best : null;
    }

    public static String closest(String word, String... candidates) {
        return closest(word, java.util.Arrays.asList(candidates));
    }

    /** Levenshtein distance; inputs are short (keys, names) and capped to keep this cheap on fuzzed input. */
    static int distance(String a, String b) {
        if (a.length() > 64 || b.length() > 64) {
            return Integer.MAX_VALUE / 2;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
