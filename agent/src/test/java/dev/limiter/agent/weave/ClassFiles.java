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

    /**
     * Defines {@code classFile} as class {@code name} in a fresh loader that delegates everything else, and
     * initialises it, so the JVM has verified it.
     */
    static Class<?> define(String name, byte[] classFile) throws ClassNotFoundException {
        ClassLoader loader = new ClassLoader(ClassFiles.class.getClassLoader()) {
            {
                defineClass(name, classFile, 0, classFile.length);
            }

            @Override
            protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
                Class<?> defined = findLoadedClass(className);
                return defined != null ? defined : super.loadClass(className, resolve);
            }
        };
        return Class.forName(name, true, loader);
    }
}
