package dev.limiter.agent;

import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Prepares Byte Buddy's class-file transformer on a daemon thread while premain parses the rules file.
 *
 * <p>Why: the first transformer Byte Buddy creates initialises its {@code ExecutingTransformer}, whose static
 * initialiser generates and loads a subclass with Byte Buddy itself (Java 9+ module support). That, and the
 * hundreds of Byte Buddy classes it loads, is most of premain's time. It depends on nothing we parse, so it
 * runs in parallel with the rules (SnakeYAML, compilation) on another core. premain joins this
 * thread before it touches any Byte Buddy class itself: two threads initialising Byte Buddy's mutually
 * dependent classes at once could deadlock on class-initialisation locks. A failure here is ignored: the
 * installation meets the same failure and reports it.
 */
final class TransformerWarmUp {

    /** Byte Buddy's protected nested class, named from the (relocated) outer class so shading keeps it right. */
    private static final String EXECUTING_TRANSFORMER = AgentBuilder.Default.class.getName() + "$ExecutingTransformer";

    private TransformerWarmUp() {
    }

    /** Starts the warm-up; join the returned thread before using Byte Buddy on the calling thread. */
    static Thread start() {
        ClassLoader loader = TransformerWarmUp.class.getClassLoader();
        Thread thread = new Thread(() -> {
            try {
                Class.forName(EXECUTING_TRANSFORMER, true, loader);
            } catch (Throwable ignored) {
                // the installation initialises the class again and reports what fails
            }
        }, "limiter-warm-up");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Waits for the warm-up to end (an interrupt is kept for the caller and ends the wait). */
    static void await(Thread warmUp) {
        try {
            warmUp.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
