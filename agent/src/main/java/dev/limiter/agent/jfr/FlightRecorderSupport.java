package dev.limiter.agent.jfr;

/**
 * Whether this JVM has JDK Flight Recorder's API ({@code jdk.jfr}): a runtime image made with jlink may leave
 * the module out. Callers test {@link #AVAILABLE} before they touch {@link FlightEvents}, so a JVM without it
 * never links an event class (a {@code NoClassDefFoundError} on a request thread otherwise).
 */
public final class FlightRecorderSupport {

    /** True if {@code jdk.jfr.Event} can be loaded from the agent's class loader. */
    public static final boolean AVAILABLE = available();

    private FlightRecorderSupport() {
    }

    private static boolean available() {
        try {
            Class.forName("jdk.jfr.Event", false, FlightRecorderSupport.class.getClassLoader());
            return true;
        } catch (Throwable t) {
            return false;
        }
    }
}
