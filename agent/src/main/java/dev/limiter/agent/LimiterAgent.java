package dev.limiter.agent;

import dev.limiter.bootstrap.AgentStarter;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The premain / agentmain / {@code Main-Class} of {@code limiter.jar}: the only agent class the system class
 * loader ever loads.
 *
 * <p>It does as little as possible and holds no state: it puts the jar's bridge classes into the boot loader (so
 * woven code in any loader sees {@code dev.limiter.bootstrap.LimiterBridge}; {@code boot.BootDefiner} says how,
 * and why not by appending the jar to the boot class path, which stays the fallback) and hands over to
 * {@link AgentStarter}, which resolves there. This class names no other type of ours in a way its verifier
 * would check (it would load a second copy of it through the system loader, before the bridge is in), and makes
 * no reflective call on the way ({@link dev.limiter.bootstrap.AgentHandoff} says why). Nothing thrown here may
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
    /** The class that defines the bridge in the boot loader, as the jar holds it (isolated, see RelayoutJar). */
    private static final String BOOT_DEFINER = "dev.limiter.agent.boot.BootDefiner";
    private static final String BOOT_DEFINER_ENTRY = "inst/dev/limiter/agent/boot/BootDefiner.classdata";
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
            if (!attached && runsOwnCommandLine(jar)) {
                return;
            }
            if (System.getProperty(LOADED_PROPERTY) == null) {
                System.setProperty(LOADED_PROPERTY, jar.getPath());
            }
            JarFile jarFile = new JarFile(jar);
            Object[] bridge = defineBridge(inst, jarFile);
            if (bridge == null) {
                inst.appendToBootstrapClassLoaderSearch(jarFile); // the boot loader keeps it open
            } else {
                jarFile.close(); // the bridge is defined; the agent's own loader opens the jar itself
            }
            // an AOT cache's training run: the agent loads its classes for the cache, and weaves nothing
            boolean training = bridge != null && bridge[2] == Boolean.TRUE;
            AgentStarter.start(args, inst, jar, attached, training);
        } catch (Throwable t) {
            failed(t);
        }
    }

    /**
     * Defines the bridge classes in the boot loader ({@code BootDefiner}); returns its answer, or null if this JVM
     * does not let it (then the jar is appended to the boot class path instead). Only the one-class loader's module
     * reads {@code jdk.internal.misc}: the application's class path gains no access.
     */
    private static Object[] defineBridge(Instrumentation inst, JarFile jar) {
        try {
            JarEntry entry = jar.getJarEntry(BOOT_DEFINER_ENTRY);
            if (entry == null) {
                return null;
            }
            byte[] bytes;
            try (InputStream in = jar.getInputStream(entry)) {
                bytes = in.readAllBytes();
            }
            Object[] handoff = {jar, null, null};
            DefinerLoader loader = new DefinerLoader(handoff);
            inst.redefineModule(Object.class.getModule(), Set.of(),
                    Map.of("jdk.internal.misc", Set.of(loader.getUnnamedModule())), Map.of(), Set.of(), Map.of());
            loader.define(bytes);
            Class.forName(BOOT_DEFINER, true, loader); // its static initialiser does the work
            return handoff[1] instanceof Integer ? handoff : null;
        } catch (IOException | RuntimeException | LinkageError | ClassNotFoundException notHere) {
            return null;
        }
    }

    /** The loader of {@code BootDefiner} alone; it hands over the jar and takes the answer back. */
    private static final class DefinerLoader extends ClassLoader implements Supplier<Object> {

        private final Object[] handoff;

        DefinerLoader(Object[] handoff) {
            super(ClassLoader.getPlatformClassLoader());
            this.handoff = handoff;
        }

        void define(byte[] bytes) {
            defineClass(BOOT_DEFINER, bytes, 0, bytes.length);
        }

        @Override
        public Object get() {
            return handoff;
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

    /**
     * True if this JVM runs the jar's own command line ({@code java -jar limiter.jar status 1}) and was handed the
     * agent only because every JVM reads {@code JAVA_TOOL_OPTIONS} (a container with the image's variable, under
     * {@code kubectl exec}): an agent there would parse the rules again, print its banner into the command's output
     * and, with {@code prometheus=}, try the application's port.
     */
    static boolean runsOwnCommandLine(File jar) {
        String command = System.getProperty("sun.java.command", ""); // the launcher's main class or jar, then args
        if (command.equals(LimiterAgent.class.getName()) || command.startsWith(LimiterAgent.class.getName() + " ")) {
            return true;
        }
        int space = command.indexOf(' ');
        String first = space < 0 ? command : command.substring(0, space);
        if (!first.endsWith(".jar")) {
            return false;
        }
        try {
            return new File(first).getCanonicalFile().equals(jar.getCanonicalFile());
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static File agentJar() throws Exception {
        return new File(LimiterAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
