package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.SimpleRemapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Never run application code during transformation": the transformer is handed a servlet whose
 * superclass has a static initialiser, through a class loader that serves every application class file as a
 * resource but throws from {@code loadClass} for application classes (as a loader in the middle of defining one
 * may not be able to load it). The weave must still succeed from class-file bytes alone, and the initialiser
 * must not run; only afterwards does the test load the woven class itself, which runs the initialiser, to show the
 * recorder works and the woven bytes verify.
 *
 * <p>The fixtures are nested here and renamed to package {@code initprobe} before use: the agent never weaves
 * its own {@code dev.limiter.agent} packages, and no class of that name exists anywhere else to be loaded by
 * mistake. The initialiser records into a system property because the renamed class is in another package.
 */
class TransformDoesNotInitialiseTest {

    private static final String RAN = "limiter.test.initprobe.ran";
    private static final String PACKAGE = "initprobe";
    private static final String BASE = PACKAGE + "/RecordingServletBase";
    private static final String LEAF = PACKAGE + "/LeafServlet";
    private static final String SERVLET_ENTRY = "servletEnter";

    /** A servlet superclass whose initialiser is application code that must not run at transformation time. */
    public abstract static class RecordingServletBase extends HttpServlet {
        static {
            System.setProperty(RAN, "true");
        }
    }

    /** The class being transformed: declares {@code service(ServletRequest, ServletResponse)}, so it is woven. */
    public static class LeafServlet extends RecordingServletBase {
        @Override
        public void service(ServletRequest request, ServletResponse response) throws ServletException, IOException {
            super.service(request, response);
        }
    }

    @TempDir
    Path classes;

    private final List<String> woven = new ArrayList<>();

    @BeforeEach
    @AfterEach
    void clearRecorder() {
        System.clearProperty(RAN);
    }

    @Test
    void aServletIsWovenFromBytesAloneWithoutLoadingOrInitialisingItsSuperclass() throws Exception {
        byte[] base = renamed(RecordingServletBase.class);
        byte[] leaf = renamed(LeafServlet.class);
        Files.createDirectories(classes.resolve(PACKAGE));
        Files.write(classes.resolve(BASE + ".class"), base);
        Files.write(classes.resolve(LEAF + ".class"), leaf);

        try (ResourcesOnlyLoader loader = new ResourcesOnlyLoader(classes, getClass().getClassLoader())) {
            LimiterTransformer transformer = LimiterTransformer.servletsOnly(
                    new ThrottledLog("dev.limiter.test.initprobe", 0), woven::add);
            byte[] wovenLeaf = transformer.transform(loader, LEAF, null, null, leaf);

            assertThat(System.getProperty(RAN)).as("the superclass's static initialiser ran during the transform")
                    .isNull();
            assertThat(loader.refused).as("application classes the transformer tried to load").isEmpty();
            assertThat(wovenLeaf).as("the servlet was woven").isNotNull().isNotEqualTo(leaf);
            assertThat(mentions(wovenLeaf, SERVLET_ENTRY)).as("the woven service calls the bridge").isTrue();
            assertThat(mentions(leaf, SERVLET_ENTRY)).isFalse();
            assertThat(woven).containsExactly(LEAF.replace('/', '.'));

            // the recorder works: defining the woven class and initialising it runs the superclass's initialiser
            DefiningLoader defining = new DefiningLoader(getClass().getClassLoader(),
                    Map.of(BASE.replace('/', '.'), base, LEAF.replace('/', '.'), wovenLeaf));
            Class<?> type = Class.forName(LEAF.replace('/', '.'), true, defining);
            assertThat(HttpServlet.class).isAssignableFrom(type);
            assertThat(System.getProperty(RAN)).isEqualTo("true");
        }
    }

    /** The class file of a nested fixture, renamed into {@link #PACKAGE} (both fixtures renamed together). */
    private static byte[] renamed(Class<?> fixture) {
        SimpleRemapper names = new SimpleRemapper(Opcodes.ASM9, Map.of(
                ClassFiles.internalName(RecordingServletBase.class), BASE,
                ClassFiles.internalName(LeafServlet.class), LEAF));
        ClassWriter writer = new ClassWriter(0);
        new ClassReader(ClassFiles.of(fixture)).accept(new ClassRemapper(writer, names), 0);
        return writer.toByteArray();
    }

    private static boolean mentions(byte[] classFile, String name) {
        return new String(classFile, StandardCharsets.ISO_8859_1).contains(name);
    }

    /**
     * Serves the application's class files as resources (its directory) but refuses to load application classes,
     * recording every attempt; the servlet API and the JDK come from the parent as usual.
     */
    private static final class ResourcesOnlyLoader extends URLClassLoader {

        final List<String> refused = Collections.synchronizedList(new ArrayList<>());

        ResourcesOnlyLoader(Path classes, ClassLoader parent) throws IOException {
            super("resources-only", new URL[] {classes.toUri().toURL()}, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(PACKAGE + ".")) {
                refused.add(name);
                throw new ClassNotFoundException(name + ": this loader never loads application classes");
            }
            return super.loadClass(name, resolve);
        }
    }

    /** Defines the given class files (after the transform, to run what the transform must not). */
    private static final class DefiningLoader extends ClassLoader {

        private final Map<String, byte[]> files;

        DefiningLoader(ClassLoader parent, Map<String, byte[]> files) {
            super("defining", parent);
            this.files = files;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] file = files.get(name);
            if (file == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, file, 0, file.length);
        }
    }
}
