package dev.limiter.agent;

import dev.limiter.bootstrap.AgentStarter;
import java.io.File;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.util.jar.JarFile;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The premain / agentmain / {@code Main-Class} of {@code limiter.jar}: the only agent class the system class
 * loader ever loads.
 *
 * <p>It does as little as possible and holds no state: it appends the jar to the bootstrap search path (so
 * woven code in any loader sees {@code dev.limiter.bootstrap.LimiterBridge}) and hands over to
 * {@link AgentStarter}, which resolves there. This class names no other type of ours in a way its verifier
 * would check (it would load a second copy of it through the system loader, before the append), and makes no
 * reflective call on the way ({@link dev.limiter.bootstrap.AgentHandoff} says why). Nothing thrown here may
 * stop the application: failures are logged and the application starts unprotected (only {@code strict=true}
 * with invalid rules stops it, deliberately, inside the installer).
 */
public final class LimiterAgent {

    private static final String CLI = "dev.limiter.agent.cli.LimiterCli";
    private static final String LOADER = "dev.limiter.bootstrap.AgentClassLoader";
    /**
     * Tells {@code java -jar limiter.jar attach} (through the Attach API's system properties) that the agent is
     * in this JVM already, before its MBeans exist (they wait for the first request).
     */
    private static final String LOADED_PROPERTY = "limiter.agent.jar";
    /** The agent logs through JUL: a runtime without it (a jlink image) gets one line on stderr instead. */
    private static final String LOGGING_MODULE = "java.logging";

    private LimiterAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, true);
    }

    /** {@code java -jar limiter.jar validate rules.yml}, {@code status PID}, ...: see {@code LimiterCli}. */
    public static void main(String[] args) throws Exception {
        File jar = agentJar();
        ClassLoader loader = newAgentLoader(Class.forName(LOADER), jar);
        Thread.currentThread().setContextClassLoader(loader);
        Object code = loader.loadClass(CLI)
                .getMethod("run", String[].class, PrintStream.class, PrintStream.class)
                .invoke(null, args, System.out, System.err);
        System.exit((Integer) code);
    }

    /** {@code attached}: a late attach, so the application's classes may be loaded already. */
    private static void start(String args, Instrumentation inst, boolean attached) {
        try {
            if (ModuleLayer.boot().findModule(LOGGING_MODULE).isEmpty()) {
                System.err.println("limiter: not started, the application runs unprotected: this Java runtime ("
                        + System.getProperty("java.home") + ") has no module " + LOGGING_MODULE + ", which the agent "
                        + "logs through; add it to the image (jlink --add-modules " + LOGGING_MODULE + ",...)");
                return;
            }
            File jar = agentJar();
            if (System.getProperty(LOADED_PROPERTY) == null) {
                System.setProperty(LOADED_PROPERTY, jar.getPath());
            }
            inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
            AgentStarter.start(args, inst, jar, attached);
        } catch (Throwable t) {
            failed(t);
        }
    }

    private static void failed(Throwable t) {
        try {
            Logger.getLogger("dev.limiter").log(Level.SEVERE, "limiter failed to start; the application runs unprotected", t);
        } catch (Throwable logging) {
            try {
                System.err.println("limiter failed to start; the application runs unprotected: " + t);
            } catch (Throwable ignored) {
                // nothing else we can do without risking the application's start-up
            }
        }
    }

    private static ClassLoader newAgentLoader(Class<?> loaderClass, File jar) throws Exception {
        return (ClassLoader) loaderClass.getConstructor(JarFile.class, URL.class)
                .newInstance(new JarFile(jar), jar.toURI().toURL());
    }

    private static File agentJar() throws Exception {
        return new File(LimiterAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
