package dev.limiter.agent.startup;

import java.io.File;
import java.io.IOException;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Names, before premain's first use of {@code java.util.logging}, the {@code LogManager} that the application's
 * own {@code main} names as its first statement, so that the one {@code LogManager} the JVM creates is the
 * application's.
 *
 * <p>Why: premain initialises JUL on purpose, on the application's main thread before any thread of ours exists
 * ({@link Startup} says why: a {@code LogManager} initialising on one thread while another waits for it is how
 * agents deadlock). Quarkus' launcher ({@code io.quarkus.bootstrap.runner.QuarkusEntryPoint}) sets
 * {@code java.util.logging.manager=org.jboss.logmanager.LogManager} first thing in {@code main}, after premain:
 * it then finds the JDK's {@code LogManager} in place, JBoss' {@code System.LoggerFinder} prints
 * {@code ERROR: The LogManager accessed before the "java.util.logging.manager" system property was set ...}, and
 * JUL records do not go through Quarkus' logging. Setting the same property before premain touches JUL is what
 * Quarkus asks of anyone who initialises logging before its {@code main} (and what its docs tell agent users to
 * pass on the command line); the application's {@code main} then sets the value it already has.
 *
 * <p>Only when the property is unset, the launched main class is such an entry point (the {@code Main-Class} of
 * the jar of {@code java -jar} if it is named {@code quarkus-run.jar} or {@code *-runner.jar}, else the class
 * named on the command line), and the manager's class file is on the system class path (where the JVM loads it
 * from); anything else leaves the JVM as it is.
 */
final class FrameworkLogManager {

    static final String PROPERTY = "java.util.logging.manager";
    private static final String QUARKUS_MAIN = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";
    private static final String JBOSS_LOG_MANAGER = "org.jboss.logmanager.LogManager";

    private FrameworkLogManager() {
    }

    /**
     * Sets {@link #PROPERTY} to the manager the launched framework's {@code main} would set; returns it, or null if
     * nothing was set.
     */
    static String adopt() {
        try {
            if (System.getProperty(PROPERTY) != null) {
                return null;
            }
            String manager = managerOf(launchedMainClass());
            if (manager == null || ClassLoader.getSystemResource(manager.replace('.', '/') + ".class") == null) {
                return null;
            }
            System.setProperty(PROPERTY, manager);
            return manager;
        } catch (RuntimeException e) {
            return null; // a security manager, an odd launcher: JUL starts as it did
        }
    }

    /** The {@code LogManager} the framework whose entry point is {@code mainClass} installs in its main, or null. */
    static String managerOf(String mainClass) {
        return QUARKUS_MAIN.equals(mainClass) ? JBOSS_LOG_MANAGER : null;
    }

    /**
     * The class the launcher runs, from {@code sun.java.command}: with {@code java -jar} (the class path is that
     * jar alone, and the command starts with it) the {@code Main-Class} of its manifest if the jar is named as
     * Quarkus names its launchers ({@link #mayBeFrameworkJar}), null for another jar; else the command's first
     * word; null if unknown.
     */
    static String launchedMainClass() {
        String command = System.getProperty("sun.java.command");
        if (command == null || command.isEmpty()) {
            return null;
        }
        String classPath = System.getProperty("java.class.path", "");
        boolean jar = !classPath.isEmpty() && classPath.indexOf(File.pathSeparatorChar) < 0
                && command.startsWith(classPath)
                && (command.length() == classPath.length() || command.charAt(classPath.length()) == ' ');
        if (jar) {
            if (!mayBeFrameworkJar(classPath)) {
                return null;
            }
            try (JarFile file = new JarFile(classPath, false)) {
                Manifest manifest = file.getManifest();
                return manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            } catch (IOException | RuntimeException e) {
                return null; // unreadable: unknown
            }
        }
        int space = command.indexOf(' ');
        return space < 0 ? command : command.substring(0, space);
    }

    /**
     * True for {@code quarkus-run.jar} (a fast-jar's launcher) and {@code *-runner.jar} (an uber-jar): only those
     * have their manifest read. Reading a manifest in premain costs ~1 ms (a 20 MB Spring Boot jar, whose zip the
     * system class loader holds open already), which every other {@code java -jar} application would pay for
     * nothing. A renamed uber-jar is not recognised: pass the property on the command line (docs/agent.md).
     */
    static boolean mayBeFrameworkJar(String path) {
        String name = new File(path).getName();
        return name.equals("quarkus-run.jar") || name.endsWith("-runner.jar");
    }
}
