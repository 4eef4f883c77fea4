package dev.limiter.agent.diagnostics;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Start-up facts for troubleshooting: how many classes were woven, and (with {@code -Dlimiter.debug=true})
 * which ones and how long premain took, logged at INFO through JUL. Never on the request path.
 */
public final class Diagnostics {

    private static final boolean DEBUG = Boolean.getBoolean("limiter.debug");
    private static final AtomicInteger WOVEN = new AtomicInteger();

    /** {@link #woven} as the transformer's listener; a class, not a method reference: no lambda in premain. */
    public static final Consumer<String> WOVEN_LISTENER = new Consumer<>() {
        @Override
        public void accept(String className) {
            woven(className);
        }
    };

    private Diagnostics() {
    }

    static void woven(String className) {
        WOVEN.incrementAndGet();
        if (DEBUG) {
            Logger.getLogger("dev.limiter").log(Level.INFO, "limiter: woven " + className);
        }
    }

    /**
     * With {@code limiter.debug}: how long premain's parts took, to tell rules parsing from weaving set-up
     * ({@code rulesMillis} negative: the rules load in the background, see {@link #rulesLoaded}).
     */
    public static void startupTimes(long rulesMillis, long weaverMillis, long totalMillis) {
        if (DEBUG) {
            String rules = rulesMillis < 0 ? "rules loading in the background" : "rules " + rulesMillis + " ms";
            Logger.getLogger("dev.limiter").log(Level.INFO, "limiter: premain took " + totalMillis + " ms ("
                    + rules + ", transformer installation " + weaverMillis + " ms)");
        }
    }

    /** With {@code limiter.debug}: how long the background parse of the rules took. */
    public static void rulesLoaded(long millis) {
        if (DEBUG) {
            Logger.getLogger("dev.limiter").log(Level.INFO, "limiter: rules loaded in the background in " + millis
                    + " ms");
        }
    }

    /** With {@code limiter.debug}: how many classes the rules name had loaded before the rules, woven now. */
    public static void wovenLate(int classes) {
        if (DEBUG) {
            Logger.getLogger("dev.limiter").log(Level.INFO, "limiter: " + classes + " classes the rules name had"
                    + " loaded before the rules were parsed; retransformed");
        }
    }

    /**
     * With {@code limiter.debug}: a class the rules may name loads while they are parsed, and waits for them
     * ({@code internalName} as the transformer has it).
     */
    public static void waitingForRules(String internalName) {
        if (DEBUG) {
            Logger.getLogger("dev.limiter").log(Level.INFO, "limiter: " + internalName.replace('/', '.')
                    + " waits for the rules before it is woven");
        }
    }

    /** With {@code limiter.debug}: that class waited {@code millis} for the rules. */
    public static void waitedForRules(String internalName, long millis) {
        if (DEBUG) {
            Logger.getLogger("dev.limiter").log(Level.INFO, "limiter: " + internalName.replace('/', '.') + " waited "
                    + millis + " ms for the rules before it was woven");
        }
    }

    /** Number of classes woven so far. */
    public static int wovenClasses() {
        return WOVEN.get();
    }
}
