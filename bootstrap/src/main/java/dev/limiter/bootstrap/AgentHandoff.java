package dev.limiter.bootstrap;

import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

/**
 * How the agent's installer, inside the isolated {@link AgentClassLoader}, is reached from the bootstrap side
 * without reflection: its entry class offers an instance to {@link AgentStarter#offer} from its static
 * initialiser, and the starter calls it through this interface.
 *
 * <p>Why not reflection: since JDK 18 a reflective call spins method-handle classes for its call shape (JEP 416);
 * premain's three reflective calls spun ~30 of them on the application's main thread (15-20 ms on Java 25), and
 * an application's own start needs few of the same.
 */
public interface AgentHandoff {

    /**
     * Installs the limiter. {@code attached}: a late attach (agentmain), when the application's classes may be
     * loaded already.
     */
    void install(String args, Instrumentation inst, Path agentJar, boolean attached);

    /**
     * A Java 25 AOT cache's training run: loads and runs once, on this thread, what a start loads, so that the
     * cache holds the agent's classes too; weaves nothing, and starts none of the start-up's threads.
     */
    void train(String args, Instrumentation inst);
}
