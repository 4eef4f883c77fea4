package startwindow;

/** A class {@link EarlyCalls} loads first; no rule names it. */
final class Unnamed {

    private Unnamed() {
    }

    static void touch() {
        // loading is the point
    }
}
