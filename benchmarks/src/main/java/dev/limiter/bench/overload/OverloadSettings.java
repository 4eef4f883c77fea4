package dev.limiter.bench.overload;

import java.time.Duration;

/**
 * How the comparison runs, from system properties (defaults in brackets): {@code overload.pool} [8] workers of
 * {@code overload.work-ms} [20] ms each; phases of {@code overload.phase-seconds} [20] at each load, a warm-up of
 * {@code overload.warmup-seconds} [10] at half capacity, {@code overload.recovery-seconds} [15] at capacity after
 * the overload; clients give up after {@code overload.timeout-ms} [2000]. {@code overload.java} is the server's
 * JVM, {@code overload.agent} the agent jar, {@code overload.classpath} the server's class path.
 */
record OverloadSettings(int pool, long workMillis, double phaseSeconds, double warmupSeconds,
        double recoverySeconds, Duration timeout, String java, String agentJar, String serverClasspath) {

    static OverloadSettings fromSystemProperties() {
        return new OverloadSettings(
                Integer.getInteger("overload.pool", 8),
                Long.getLong("overload.work-ms", 20),
                Double.parseDouble(System.getProperty("overload.phase-seconds", "20")),
                Double.parseDouble(System.getProperty("overload.warmup-seconds", "10")),
                Double.parseDouble(System.getProperty("overload.recovery-seconds", "15")),
                Duration.ofMillis(Long.getLong("overload.timeout-ms", 2000)),
                System.getProperty("overload.java", System.getProperty("java.home") + "/bin/java"),
                required("overload.agent"),
                required("overload.classpath"));
    }

    /** Calls per second the pool serves at most. */
    double capacity() {
        return pool * 1000.0 / workMillis;
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("set -D" + name);
        }
        return value;
    }
}
