package dev.limiter.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The isolated loader against a jar laid out like limiter.jar: classes under {@code inst/} as
 * {@code .classdata} load, are invisible as ordinary class files, and their bytes are served for
 * {@code X.class} resource requests (Byte Buddy reads advice that way).
 */
class AgentClassLoaderTest {

    @TempDir
    Path dir;

    /** A class of this test module (JDK-only), copied into a jar under inst/ with the .classdata suffix. */
    private Path jarWithHiddenClass() throws Exception {
        Path jar = dir.resolve("agent.jar");
        String name = "dev/limiter/bootstrap/StartGuard";
        try (InputStream in = StartGuard.class.getResourceAsStream("StartGuard.class");
             JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            byte[] bytes = in.readAllBytes();
            out.putNextEntry(new ZipEntry("inst/" + name + ".classdata"));
            out.write(bytes);
            out.closeEntry();
            out.putNextEntry(new ZipEntry("inst/META-INF/services/example.Service"));
            out.write("example.Impl\n".getBytes());
            out.closeEntry();
            out.putNextEntry(new ZipEntry("root.txt"));
            out.write("root".getBytes());
            out.closeEntry();
        }
        return jar;
    }

    @Test
    void definesHiddenClassesItselfAndServesTheirBytesAsClassResources() throws Exception {
        Path jar = jarWithHiddenClass();
        try (JarFile file = new JarFile(jar.toFile())) {
            AgentClassLoader loader = new AgentClassLoader(file, jar.toUri().toURL());
            Class<?> loaded = loader.loadClass("dev.limiter.bootstrap.StartGuard");
            assertThat(loaded.getClassLoader()).isSameAs(loader);
            assertThat(loaded).isNotSameAs(StartGuard.class);
            assertThat(loaded.getPackage().getName()).isEqualTo("dev.limiter.bootstrap");
            assertThat(loaded.getProtectionDomain().getCodeSource().getLocation()).isEqualTo(jar.toUri().toURL());

            try (InputStream bytes = loader.getResourceAsStream("dev/limiter/bootstrap/StartGuard.class")) {
                assertThat(bytes).isNotNull();
                assertThat(bytes.readAllBytes()).startsWith(0xCA, 0xFE, 0xBA, 0xBE);
            }
            assertThat(loader.getResource("META-INF/services/example.Service")).isNotNull();
            assertThat(loader.getResource("root.txt")).as("only inst/ is ours").isNull();
            assertThatThrownBy(() -> loader.loadClass("dev.limiter.bootstrap.Nope"))
                    .isInstanceOf(ClassNotFoundException.class);
        }
    }

    @Test
    void theParentIsThePlatformLoaderSoTheApplicationClassPathIsInvisible() throws Exception {
        Path jar = jarWithHiddenClass();
        try (JarFile file = new JarFile(jar.toFile())) {
            AgentClassLoader loader = new AgentClassLoader(file, jar.toUri().toURL());
            assertThat(loader.getParent()).isSameAs(ClassLoader.getPlatformClassLoader());
            assertThatThrownBy(() -> loader.loadClass("org.assertj.core.api.Assertions"))
                    .isInstanceOf(ClassNotFoundException.class);
            assertThat(loader.loadClass("java.util.logging.Logger")).isNotNull();
            assertThat(loader.loadClass("java.sql.Timestamp")).isNotNull();
        }
    }
}
