package dev.limiter.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.jar.JarFile;
import java.util.logging.Logger;

/**
 * premain's second half, on the bootstrap class path: claims the start, creates the isolated
 * {@link AgentClassLoader} and hands over to the installer inside it through {@link AgentHandoff}.
 *
 * <p>The premain class ({@code LimiterAgent}, loaded by the system loader) calls {@link #start} only after
 * appending the jar to the bootstrap search path, so this class and everything it names resolve there, once,
 * for every loader: nothing here is reached by reflection, and the premain class's verifier never needs a type
 * of ours (it would load a second copy through the system loader).
 */
public final class AgentStarter {

    /** The agent loader's class whose static initialiser offers the {@link AgentHandoff}. */
    static final String ENTRY = "dev.limiter.agent.AgentEntry";

    private static volatile AgentHandoff offered;

    private AgentStarter() {
    }

    /** Called by the entry class's static initialiser, inside the agent loader. */
    public static void offer(AgentHandoff handoff) {
        offered = handoff;
    }

    /**
     * Starts the agent from {@code jar}, unless one is running already (a second {@code -javaagent}, or a late
     * attach on top of one): that is logged and ignored. {@code training}: a Java 25 AOT cache's training run
     * ({@link AgentHandoff#train}).
     */
    public static void start(String args, Instrumentation inst, File jar, boolean attached, boolean training)
            throws Exception {
        if (!StartGuard.claim()) {
            Logger.getLogger("dev.limiter").warning("limiter is already running; ignoring " + jar);
            return;
        }
        ClassLoader loader = new AgentClassLoader(new JarFile(jar), jar.toURI().toURL());
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Class.forName(ENTRY, true, loader);
            AgentHandoff handoff = offered;
            if (handoff == null) {
                throw new IllegalStateException(ENTRY + " did not offer the agent's installer");
            }
            if (training) {
                handoff.train(args, inst);
            } else {
                handoff.install(args, inst, jar.toPath(), attached);
            }
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
