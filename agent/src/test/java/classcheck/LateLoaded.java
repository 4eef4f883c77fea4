package classcheck;

/** A class that loads only when {@link WaitingMain} calls it, after the agent's class-name check has run. */
final class LateLoaded {

    private LateLoaded() {
    }

    static void work() {
    }
}
