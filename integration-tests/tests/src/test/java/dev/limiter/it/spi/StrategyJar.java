package dev.limiter.it.spi;

import dev.limiter.core.RateLimitStrategy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/** Packs a strategy class of the test class path into a jar for {@code strategies=}, as a user ships one. */
public final class StrategyJar {

    private StrategyJar() {
    }

    /** Writes {@code jar} holding {@code strategy}'s class file and its services entry; returns {@code jar}. */
    public static Path write(Class<? extends RateLimitStrategy> strategy, Path jar) {
        String classFile = strategy.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                InputStream bytes = strategy.getClassLoader().getResourceAsStream(classFile)) {
            out.putNextEntry(new JarEntry(classFile));
            bytes.transferTo(out);
            out.putNextEntry(new JarEntry("META-INF/services/" + RateLimitStrategy.class.getName()));
            out.write((strategy.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }
}
