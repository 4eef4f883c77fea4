package dev.limiter.agent.boot;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Defines the agent jar's bridge classes ({@code dev/limiter/bootstrap/}, {@code dev/limiter/api/}) in the boot
 * loader, where woven code in any loader finds them, without appending the jar to the boot class path.
 *
 * <p>Why not the append: the JVM then prints "Sharing is only supported for boot loader classes because bootstrap
 * classpath has been appended" at every start, a warning operators ask about; and the loader that may read
 * {@code jdk.internal.misc} is needed anyway, to tell a Java 25 AOT training run ({@link #training}). Classes
 * defined here are dynamically defined: no class cache records them.
 *
 * <p>How: premain loads this one class in a loader of its own ({@code LimiterAgent}'s), whose unnamed module
 * alone is let into {@code jdk.internal.misc}, and its static initialiser does the work (no reflective call: see
 * {@code AgentHandoff}). The loader hands it the jar and takes the answer through {@link Supplier#get}: an
 * {@code Object[]} of {@code {JarFile, defined, training}}: the number of classes defined (or what was thrown),
 * and whether this JVM is an AOT cache's training run ({@link #training}). A class whose super type is not defined
 * yet is tried again after the others.
 */
public final class BootDefiner {

    /**
     * The bridge's classes, written by the build in an order they can be defined in, each after its super types:
     * reading it spares walking the jar's ~1,500 entries in premain.
     */
    private static final String CLASSES = "META-INF/limiter-boot-classes";

    static {
        Object[] handoff = (Object[]) ((Supplier<?>) BootDefiner.class.getClassLoader()).get();
        try {
            handoff[1] = defineAll((JarFile) handoff[0]);
            handoff[2] = training();
        } catch (Throwable t) {
            handoff[1] = t;
        }
    }

    /**
     * True in a Java 24+ AOT training run ({@code -XX:AOTMode=record}, {@code -XX:AOTCacheOutput}), when the JVM
     * dumps a static archive: a cache trained while the agent wove classes crashes the JVMs that use it (Java 25),
     * so the agent weaves nothing then. False on Java 17 (no such method) and when dumping a dynamic archive, as
     * {@code -XX:+AutoCreateSharedArchive} does in production.
     */
    private static Boolean training() throws Throwable {
        Class<?> cds = Class.forName("jdk.internal.misc.CDS");
        MethodHandle dumpingStatic;
        try {
            dumpingStatic = MethodHandles.lookup().findStatic(cds, "isDumpingStaticArchive",
                    MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException java17) {
            return Boolean.FALSE;
        }
        return (boolean) dumpingStatic.invokeExact();
    }

    private BootDefiner() {
    }

    private static Integer defineAll(JarFile jar) throws Throwable {
        Class<?> unsafeType = Class.forName("jdk.internal.misc.Unsafe");
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        Object unsafe = lookup.findStatic(unsafeType, "getUnsafe", MethodType.methodType(unsafeType))
                .asType(MethodType.methodType(Object.class)).invokeExact();
        MethodHandle define = lookup.findVirtual(unsafeType, "defineClass", MethodType.methodType(Class.class,
                String.class, byte[].class, int.class, int.class, ClassLoader.class, ProtectionDomain.class))
                .bindTo(unsafe);
        List<String> names = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        for (String name : new String(read(jar, CLASSES), StandardCharsets.UTF_8).split("\n")) {
            names.add(name);
            bytes.add(read(jar, name.replace('.', '/') + ".class"));
        }
        int defined = 0;
        while (!names.isEmpty()) { // once, in the build's order; a class out of order is tried again after the rest
            int before = names.size();
            for (int i = 0; i < names.size(); ) {
                try {
                    byte[] b = bytes.get(i);
                    Class<?> c = (Class<?>) define.invokeExact(names.get(i), b, 0, b.length, (ClassLoader) null,
                            (ProtectionDomain) null);
                    names.remove(i);
                    bytes.remove(i);
                    defined++;
                } catch (NoClassDefFoundError superTypeNotYet) {
                    i++; // defined in a later round, after its super types
                }
            }
            if (names.size() == before) {
                throw new NoClassDefFoundError("cannot define " + names + " in the boot loader");
            }
        }
        return defined;
    }

    private static byte[] read(JarFile jar, String name) throws IOException {
        JarEntry entry = jar.getJarEntry(name);
        if (entry == null) {
            throw new IOException(name + " is missing from " + jar.getName());
        }
        try (InputStream in = jar.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }
}
