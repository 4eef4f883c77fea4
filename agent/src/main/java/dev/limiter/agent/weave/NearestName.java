package dev.limiter.agent.weave;

/**
 * The loaded class name nearest to a class glob someone wrote, for a "did you mean" in a warning: the smallest
 * edit distance between the glob's literal text and a name in the same top-level package, or the same simple
 * name in any package. Runs once per warning, over the names of the loaded classes.
 */
final class NearestName {

    /** Beyond this many edits a name is not "near". */
    private static final int MAX_DISTANCE = 8;

    private NearestName() {
    }

    /** The nearest of {@code loaded}'s names to {@code glob}, or null if none is near. */
    static String among(String glob, Class<?>[] loaded) {
        String wanted = glob.replace("*", "").replace("?", "");
        int dot = wanted.indexOf('.');
        String topPackage = dot < 0 ? null : wanted.substring(0, dot + 1);
        String simple = wanted.substring(wanted.lastIndexOf('.') + 1);
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        for (Class<?> type : loaded) {
            String name = type.getName();
            boolean samePackage = topPackage != null && name.startsWith(topPackage);
            boolean sameSimpleName = !simple.isEmpty() && name.endsWith("." + simple);
            if (!samePackage && !sameSimpleName) {
                continue;
            }
            int distance = sameSimpleName ? 0 : distance(wanted, name, bestDistance);
            if (distance < bestDistance) {
                best = name;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** Levenshtein distance of {@code a} and {@code b}, or a value above {@code limit} once it exceeds it. */
    static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] previous = new int[b.length() + 1];
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            row[0] = i;
            int smallest = row[0];
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                row[j] = Math.min(substitution, Math.min(previous[j], row[j - 1]) + 1);
                smallest = Math.min(smallest, row[j]);
            }
            if (smallest > limit) {
                return limit + 1;
            }
            int[] swap = previous;
            previous = row;
            row = swap;
        }
        return previous[b.length()];
    }
}
