package dev.limiter.agent.diagnostics;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When the method rules of the last reload are in force. A reload's limits and modes hold at once (they are data),
 * but a rule that names a method of a class already loaded needs that class re-woven first, on a background
 * thread: until then calls of that method are not checked. An operator must be able to see that window: JMX's
 * {@code Reweaving} and {@code LastReweave}, {@code limiter status} and the reload log read it here.
 */
public final class Reweaving {

    private static final AtomicInteger PENDING = new AtomicInteger();
    private static volatile long pendingSinceMillis;
    private static volatile String last = "";

    private Reweaving() {
    }

    /** A reload at {@code reloadMillis} needs loaded classes re-woven; returns when that was asked. */
    public static long pending(long reloadMillis) {
        if (PENDING.getAndIncrement() == 0) {
            pendingSinceMillis = reloadMillis;
        }
        return reloadMillis;
    }

    /**
     * The re-weaving asked at {@code reloadMillis} finished: {@code classes} were retransformed ({@code failed}: some
     * could not be). Returns the line that says so.
     */
    public static String done(long reloadMillis, int classes, boolean failed) {
        String woven = failed ? "re-woven; some could not be, see the log" : "re-woven";
        return inForce("reload", reloadMillis, classes, woven);
    }

    /**
     * A late attach at {@code attachMillis} has woven the loaded classes its method rules name ({@code classes}
     * in all): they are in force from now. Returns the line that says so.
     */
    public static String attached(long attachMillis, int classes) {
        return inForce("late attach", attachMillis, classes, "woven");
    }

    private static String inForce(String what, long sinceMillis, int classes, String woven) {
        long now = System.currentTimeMillis();
        String line = "the method rules of the " + what + " at " + Instant.ofEpochMilli(sinceMillis) + " are in force"
                + " after " + Math.max(0, now - sinceMillis) + " ms (" + classes
                + (classes == 1 ? " class " : " classes ") + woven + ")";
        last = line;
        PENDING.decrementAndGet();
        return line;
    }

    /** {@code in force}, or {@code pending since <instant>} while loaded classes are being re-woven. */
    public static String state() {
        return PENDING.get() > 0 ? "pending since " + Instant.ofEpochMilli(pendingSinceMillis) : "in force";
    }

    /** The last re-weaving's line ({@link #done}); empty if there was none. */
    public static String last() {
        return last;
    }
}
