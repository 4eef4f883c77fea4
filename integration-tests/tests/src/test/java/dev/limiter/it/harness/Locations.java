package dev.limiter.it.harness;

import java.nio.file.Path;

/**
 * Where things are, from the system properties the tests module's surefire configuration sets; the defaults
 * make the tests runnable from an IDE whose working directory is {@code integration-tests/tests}.
 */
public final class Locations {

    private Locations() {
    }

    public static Path java() {
        String jvm = System.getProperty("limiter.test.jvm", "");
        return jvm.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java") : Path.of(jvm);
    }

    static Path agentJar() {
        return absolute("limiter.agent.jar", "../../agent/target/limiter.jar");
    }

    static Path apps() {
        return absolute("limiter.it.apps", "../apps");
    }

    public static Path logs() {
        return absolute("limiter.it.logs", "target/it-logs");
    }

    private static Path absolute(String property, String fallback) {
        return Path.of(System.getProperty(property, fallback)).toAbsolutePath().normalize();
    }
}
