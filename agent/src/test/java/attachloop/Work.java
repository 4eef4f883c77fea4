package attachloop;

/** The method a rule names: called in a tight loop by {@link LoopMain}'s threads, before and after the attach. */
public final class Work {

    private Work() {
    }

    public static int call(int value) {
        return value + 1;
    }
}
