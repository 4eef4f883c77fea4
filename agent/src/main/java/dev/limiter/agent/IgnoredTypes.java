package dev.limiter.agent;

/**
 * The package prefixes the agent never weaves: the JDK, Byte Buddy, and our own packages (named one by one,
 * because applications, our demo and integration-test apps among them, may live under {@code dev.limiter.}).
 *
 * <p>One list for two users that must agree: the transformer's ignore matcher ({@link Weaver}) and the
 * install-time filter of already loaded classes ({@link LoadedCandidates}), which skips Byte Buddy's
 * retransformation scan when only ignored classes are loaded (always the case in premain).
 */
public final class IgnoredTypes {

    static final String[] PREFIXES = {
        "net.bytebuddy.", "java.", "javax.management.", "jdk.", "sun.", "com.sun.",
        "dev.limiter.agent.", "dev.limiter.bootstrap.", "dev.limiter.api.", "dev.limiter.core.",
        "dev.limiter.rules.", "dev.limiter.shaded.",
    };

    private IgnoredTypes() {
    }

    /** True if the agent never weaves {@code className} (JDK, Byte Buddy, the agent itself). */
    public static boolean ignored(String className) {
        for (String prefix : PREFIXES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
