package dev.limiter.agent.diagnostics;

import java.io.InputStream;
import java.util.Properties;

/**
 * The agent's version, read from a resource filtered by Maven at build time. A resource rather than the jar
 * manifest because the agent classes are loaded by the isolated loader, which defines packages without
 * manifest attributes.
 */
public final class AgentVersion {

    private static final String VERSION = read();

    private AgentVersion() {
    }

    public static String get() {
        return VERSION;
    }

    private static String read() {
        try (InputStream in = AgentVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version", "unknown");
        } catch (Exception e) {
            return "unknown";
        }
    }
}
