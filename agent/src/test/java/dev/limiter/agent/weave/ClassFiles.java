package dev.limiter.agent.weave;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Reads the class files of test fixtures as the JVM would hand them to a transformer. */
final class ClassFiles {

    private ClassFiles() {
    }

    static byte[] of(Class<?> type) {
        return of(type.getName().replace('.', '/'));
    }

    static byte[] of(String internalName) {
        try (InputStream in = ClassFiles.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
            if (in == null) {
                throw new IllegalArgumentException("no class file for " + internalName);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String internalName(Class<?> type) {
        return type.getName().replace('.', '/');
    }
}
