package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which launched programs get their framework's {@code LogManager} named before premain's first use of JUL
 * ({@link FrameworkLogManager}): Quarkus' entry point, found from {@code java -jar}'s manifest or the command
 * line; nothing else, never over a value already set, never a manager the system class path lacks. (That Quarkus
 * then logs no error is checked on a real Quarkus server: {@code QuarkusHttpLimiterTest}.)
 */
class FrameworkLogManagerTest {

    private static final String QUARKUS_MAIN = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";

    @TempDir
    Path dir;

    private String command;
    private String classPath;
    private String manager;

    @BeforeEach
    void saveProperties() {
        command = System.getProperty("sun.java.command");
        classPath = System.getProperty("java.class.path");
        manager = System.getProperty(FrameworkLogManager.PROPERTY);
    }

    @AfterEach
    void restoreProperties() {
        restore("sun.java.command", command);
        restore("java.class.path", classPath);
        restore(FrameworkLogManager.PROPERTY, manager);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    private Path jarWithMainClass(String name, String mainClass) throws Exception {
        Path jar = dir.resolve(name);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            out.flush();
        }
        return jar;
    }

    @Test
    void onlyQuarkusEntryPointHasAManagerOfItsOwn() {
        assertThat(FrameworkLogManager.managerOf(QUARKUS_MAIN)).isEqualTo("org.jboss.logmanager.LogManager");
        assertThat(FrameworkLogManager.managerOf("org.springframework.boot.loader.launch.JarLauncher")).isNull();
        assertThat(FrameworkLogManager.managerOf(null)).isNull();
    }

    @Test
    void theMainClassOfAJarLaunchComesFromItsManifestAndOfAClassPathLaunchFromTheCommand() throws Exception {
        Path dirWithSpace = Files.createDirectories(dir.resolve("quarkus app"));
        Path jar = jarWithMainClass("quarkus app/quarkus-run.jar", QUARKUS_MAIN);
        assertThat(jar.getParent()).isEqualTo(dirWithSpace);
        System.setProperty("java.class.path", jar.toString());
        System.setProperty("sun.java.command", jar + " 0");
        assertThat(FrameworkLogManager.launchedMainClass()).isEqualTo(QUARKUS_MAIN);
        System.setProperty("sun.java.command", jar.toString());
        assertThat(FrameworkLogManager.launchedMainClass()).isEqualTo(QUARKUS_MAIN);
        Path uberJar = jarWithMainClass("shop-1.0-runner.jar", QUARKUS_MAIN);
        System.setProperty("java.class.path", uberJar.toString());
        System.setProperty("sun.java.command", uberJar + " 0");
        assertThat(FrameworkLogManager.launchedMainClass()).isEqualTo(QUARKUS_MAIN);
        // any other jar's manifest is not read (premain would pay for it): unknown
        Path other = jarWithMainClass("app.jar", QUARKUS_MAIN);
        System.setProperty("java.class.path", other.toString());
        System.setProperty("sun.java.command", other + " 0");
        assertThat(FrameworkLogManager.launchedMainClass()).isNull();

        System.setProperty("java.class.path", "lib/a.jar" + java.io.File.pathSeparator + "lib/b.jar");
        System.setProperty("sun.java.command", "com.acme.Main --port 0");
        assertThat(FrameworkLogManager.launchedMainClass()).isEqualTo("com.acme.Main");
        System.clearProperty("sun.java.command");
        assertThat(FrameworkLogManager.launchedMainClass()).isNull();
    }

    @Test
    void aManagerIsNamedNeitherOverOneAlreadySetNorWhenTheSystemClassPathLacksIt() throws Exception {
        Path jar = jarWithMainClass("quarkus-run.jar", QUARKUS_MAIN);
        System.setProperty("java.class.path", jar.toString());
        System.setProperty("sun.java.command", jar + " 0");

        System.setProperty(FrameworkLogManager.PROPERTY, "com.acme.Manager");
        assertThat(FrameworkLogManager.adopt()).isNull();
        assertThat(System.getProperty(FrameworkLogManager.PROPERTY)).isEqualTo("com.acme.Manager");

        // this JVM's class path has no JBoss LogManager: JUL would fail to load it, so nothing is named
        System.clearProperty(FrameworkLogManager.PROPERTY);
        assertThat(ClassLoader.getSystemResource("org/jboss/logmanager/LogManager.class")).isNull();
        assertThat(FrameworkLogManager.adopt()).isNull();
        assertThat(System.getProperty(FrameworkLogManager.PROPERTY)).isNull();
    }
}
