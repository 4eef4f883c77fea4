package dev.limiter.agent.cli;

import java.io.IOException;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Whether another JVM runs the limiter already, from what the Attach API tells without touching JMX: the
 * agent's own system property (set when it is loaded, before its MBeans exist), else a {@code -javaagent:}
 * option naming a jar whose manifest's {@code Premain-Class} is ours (an agent built before the property). Loading
 * the agent twice would be refused by the agent itself, but silently, in the application's log: the command line
 * says it instead.
 */
final class AgentPresence {

    static final String AGENT_CLASS = "dev.limiter.agent.LimiterAgent";
    private static final String JAVAAGENT = "-javaagent:";

    private AgentPresence() {
    }

    /** The agent jar loaded in that JVM, or null if none is. */
    static String loadedJar(Properties systemProperties, String jvmArguments) {
        String jar = systemProperties.getProperty(TargetJvm.AGENT_PROPERTY);
        if (jar != null && !jar.isEmpty()) {
            return jar;
        }
        for (String option : jvmArguments.split("\\s+")) {
            if (option.startsWith(JAVAAGENT)) {
                String path = option.substring(JAVAAGENT.length());
                int arguments = path.indexOf('=');
                path = arguments < 0 ? path : path.substring(0, arguments);
                if (isLimiterJar(path)) {
                    return path;
                }
            }
        }
        return null;
    }

    static boolean isLimiterJar(String path) {
        try (JarFile jar = new JarFile(path)) {
            Manifest manifest = jar.getManifest();
            return manifest != null
                    && AGENT_CLASS.equals(manifest.getMainAttributes().getValue(new Attributes.Name("Premain-Class")));
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
