package dev.limiter.agent.weave;

import dev.limiter.agent.classfile.ClassReaders;
import dev.limiter.agent.classfile.ClassShapes;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Which {@link WeaveTarget} types a class implements, found by reading only the headers of class files (super
 * class and interfaces, through ASM's {@link ClassReader}, which parses no members), never by loading a class.
 *
 * <p>Why not a Byte Buddy type pool: a pool parses every member and annotation of every class it describes, and
 * in a loader that sees the servlet API (a server's common loader, a Spring Boot application's loader) every
 * class loaded must be asked "is this a servlet?". The header is all that question needs. Super types are read
 * as resources of the initiating loader (as Byte Buddy's pool-only descriptions did) and their answers cached
 * per loader (weak keys, so redeployed applications do not leak), so a framework base class is read once. JDK
 * types never implement a target and are not read. A super type whose class file cannot be found or read
 * contributes nothing (the class is still matched through its other super types).
 */
final class SuperTypes {

    /** Deeper than any real hierarchy; stops a malformed cyclic one. */
    private static final int MAX_DEPTH = 64;

    private final Map<ClassLoader, Map<String, Integer>> byLoader = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * The target bits of the class {@code internalName} whose class file is {@code classFile}, as seen from
     * {@code loader} (not null). Interfaces match nothing: only classes are woven.
     */
    int of(ClassLoader loader, String internalName, byte[] classFile) {
        ClassReader reader = ClassReaders.of(classFile);
        if ((reader.getAccess() & Opcodes.ACC_INTERFACE) != 0) {
            return 0;
        }
        Map<String, Integer> cache = cacheOf(loader);
        int bits = fromHeader(loader, cache, reader, 0);
        cache.put(internalName, bits);
        return bits;
    }

    private Map<String, Integer> cacheOf(ClassLoader loader) {
        Map<String, Integer> cache = byLoader.get(loader);
        if (cache == null) {
            // no lambda: this runs on the application's start-up thread, where spinning one costs milliseconds
            synchronized (byLoader) {
                cache = byLoader.get(loader);
                if (cache == null) {
                    cache = new ConcurrentHashMap<>();
                    byLoader.put(loader, cache);
                }
            }
        }
        return cache;
    }

    private int fromHeader(ClassLoader loader, Map<String, Integer> cache, ClassReader reader, int depth) {
        int bits = 0;
        String superName = reader.getSuperName();
        if (superName != null) {
            bits |= ofName(loader, cache, superName, depth + 1);
        }
        for (String name : reader.getInterfaces()) {
            bits |= ofName(loader, cache, name, depth + 1);
        }
        return bits;
    }

    private int ofName(ClassLoader loader, Map<String, Integer> cache, String internalName, int depth) {
        int target = WeaveTarget.bitOf(internalName);
        if (target != 0) {
            // exact-class targets are woven in their one named class, never in a subclass; masked, the cached bits
            // stay within the JDK's cached Integers
            return target & ~WeaveTarget.EXACT_CLASSES;
        }
        if (depth > MAX_DEPTH || isJdk(internalName)) {
            return 0;
        }
        Integer known = cache.get(internalName);
        if (known != null) {
            return known;
        }
        byte[] classFile = ClassShapes.classFile(loader, internalName);
        int bits = classFile == null ? 0 : fromHeader(loader, cache, ClassReaders.of(classFile), depth);
        cache.put(internalName, bits);
        return bits;
    }

    private static boolean isJdk(String internalName) {
        return internalName.startsWith("java/") || internalName.startsWith("jdk/")
                || internalName.startsWith("sun/") || internalName.startsWith("com/sun/");
    }

}
