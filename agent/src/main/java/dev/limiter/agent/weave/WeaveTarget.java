package dev.limiter.agent.weave;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.registry.EntryPoints;

/**
 * The registered entry points' {@link EntryTarget}s as the transformer checks them, each with its bit
 * ({@code 1 << index}), so "which targets does this class implement" and "which APIs does this loader see" are a
 * small {@code int} cached per class name and per loader without allocation (boxed values up to 127 are the JDK's
 * cached {@code Integer}s: only the bits of targets found through their API, listed first, are cached; the
 * exact-class targets are found by name). A loader that cannot see a target's API can hold no implementation of it,
 * so the same bits answer both questions. {@link ApiVisibility}, {@link EntryPointNames}, {@link SuperTypes},
 * {@link LoadedClasses} and {@link EntryPointWeaver} derive all they check from {@link #ALL}.
 */
final class WeaveTarget {

    /** Every target, in bit order. */
    static final WeaveTarget[] ALL;
    /** Bits of the servlet / filter targets (their weaving warms up the weaver; their sighting, the requests). */
    static final int SERVLETS;
    /** Bits of the exception-mapper targets. */
    static final int MAPPERS;
    /** Bits of the targets woven in one named class only, found by its name ({@link #exactBits}). */
    static final int EXACT_CLASSES;
    /** Bits of every target. */
    static final int EVERY;
    /** Internal names of the JDK classes among the {@link #EXACT_CLASSES}: the only JDK classes ever woven. */
    private static final String[] JDK_CLASSES;
    /** The JDK modules of those classes, which must read the bridges' module. */
    static final String[] JDK_MODULES;
    /**
     * Package prefixes of the libraries whose classes the other {@link #EXACT_CLASSES} are ({@code io/grpc/stub/}):
     * a class loaded from one says that weaving is coming ({@link #inExactLibrary}).
     */
    private static final String[] EXACT_LIBRARIES;

    static {
        EntryTarget[] targets = EntryPoints.targets();
        if (targets.length > 31) { // a set of targets is an int's bits
            throw new IllegalStateException("more than 31 weave targets");
        }
        ALL = new WeaveTarget[targets.length];
        int servlets = 0;
        int mappers = 0;
        int exact = 0;
        for (int i = 0; i < targets.length; i++) {
            WeaveTarget target = new WeaveTarget(targets[i], 1 << i);
            ALL[i] = target;
            if (target.shape == AdviceShape.SERVLET) {
                servlets |= target.bit;
            } else if (target.shape == AdviceShape.MAPPER) {
                mappers |= target.bit;
            }
            if (targets[i].exact()) {
                exact |= target.bit;
            } else if (target.bit > 64) {
                throw new IllegalStateException("targets found through their API go first: " + target.id);
            }
        }
        SERVLETS = servlets;
        MAPPERS = mappers;
        EXACT_CLASSES = exact;
        EVERY = (1 << targets.length) - 1;
        java.util.Set<String> jdkClasses = new java.util.LinkedHashSet<>();
        java.util.Set<String> jdkModules = new java.util.LinkedHashSet<>();
        java.util.Set<String> libraries = new java.util.LinkedHashSet<>();
        for (EntryTarget target : targets) {
            if (target.jdkModule != null) {
                jdkClasses.add(target.types[0]);
                jdkModules.add(target.jdkModule);
            } else if (target.exact()) {
                libraries.add(libraryOf(target.types[0]));
            }
        }
        JDK_CLASSES = jdkClasses.toArray(new String[0]);
        JDK_MODULES = jdkModules.toArray(new String[0]);
        EXACT_LIBRARIES = libraries.toArray(new String[0]);
    }

    /** This target's bit in the masks of targets. */
    final int bit;
    /** The description. */
    final EntryTarget target;
    final String id;
    /** Internal names ({@code a/b/C}) of the types whose implementations are woven. */
    final String[] types;
    /** The class file a loader finds if it can see this target's API; null for the {@link #EXACT_CLASSES}. */
    final String apiResource;
    /** Names of the woven methods: a class whose constant pool holds none of them cannot declare one. */
    final String[] methods;
    /** The advice woven into those methods. */
    final AdviceShape shape;
    /** What a woven method's descriptor starts with: its leading parameter types. */
    final String descriptorStart;

    private WeaveTarget(EntryTarget target, int bit) {
        this.bit = bit;
        this.target = target;
        this.id = target.id;
        this.types = target.types;
        this.apiResource = target.apiResource;
        this.methods = target.methods;
        this.shape = target.shape;
        this.descriptorStart = target.descriptorStart;
    }

    /** The target registered as {@code id} ({@code servlet-jakarta}); tests and the warm-up. */
    static WeaveTarget named(String id) {
        for (WeaveTarget target : ALL) {
            if (target.id.equals(id)) {
                return target;
            }
        }
        throw new IllegalArgumentException("no weave target " + id);
    }

    /** The first of the targets {@code mask} whose advice method {@code name} is, or null if none. */
    static WeaveTarget weaving(int mask, int access, String name, String descriptor) {
        for (WeaveTarget target : ALL) {
            if ((mask & target.bit) != 0 && target.weaves(access, name, descriptor)) {
                return target;
            }
        }
        return null;
    }

    /** True if this target weaves the method {@code name} with {@code access} and {@code descriptor}. */
    boolean weaves(int access, String name, String descriptor) {
        return target.weaves(access, name, descriptor);
    }

    /** The bits of {@code targets} (registered ones, compared by identity). */
    static int bitsOf(EntryTarget[] targets) {
        int bits = 0;
        for (EntryTarget wanted : targets) {
            for (WeaveTarget target : ALL) {
                if (target.target == wanted) {
                    bits |= target.bit;
                }
            }
        }
        return bits;
    }

    /** The bits of the target types named {@code internalName} ({@code a/b/C}), 0 if it is none. */
    static int bitOf(String internalName) {
        for (WeaveTarget target : ALL) {
            if (EntryTarget.isOneOf(internalName, target.types)) {
                return target.bit;
            }
        }
        return 0;
    }

    /** The bits of the {@link #EXACT_CLASSES} targets woven in the class named {@code internalName}, else 0. */
    static int exactBits(String internalName) {
        int bits = 0;
        for (WeaveTarget target : ALL) {
            if ((target.bit & EXACT_CLASSES) != 0 && target.types[0].equals(internalName)) {
                bits |= target.bit;
            }
        }
        return bits;
    }

    /** For the log: each target of {@code bits} as its id and the methods it weaves ({@code vertx-web: route}). */
    static String describe(int bits) {
        StringBuilder text = new StringBuilder();
        for (WeaveTarget target : ALL) {
            if ((target.bit & bits) != 0) {
                text.append(text.length() == 0 ? "" : "; ").append(target.id).append(": ")
                        .append(String.join(", ", target.methods));
            }
        }
        return text.toString();
    }

    /**
     * True if {@code internalName} is a class of a library one of the {@link #EXACT_CLASSES} belongs to: the first
     * such class loads before the woven one (a gRPC server's {@code io/grpc/stub/} classes before its call
     * handlers), the sign the weaver's warm-up waits for where no woven API is visible.
     */
    static boolean inExactLibrary(String internalName) {
        return matchesAny(internalName, EXACT_LIBRARIES, true);
    }

    /**
     * The first three segments of the package of {@code internalName} ({@code io/grpc/stub/}), or all of them if it
     * has fewer; a class without a package is its own library (an empty prefix would match every class).
     */
    static String libraryOf(String internalName) {
        int at = -1;
        for (int segments = 0; segments < 3; segments++) {
            int next = internalName.indexOf('/', at + 1);
            if (next < 0) {
                break;
            }
            at = next;
        }
        return at < 0 ? internalName : internalName.substring(0, at + 1);
    }

    /**
     * True if internal name {@code internalName}, which {@link IgnoredTypes} rejects, is one of the JDK classes a
     * target weaves nonetheless: a few {@code equals} against the names (most differ in length).
     */
    static boolean isWovenJdkClass(String internalName) {
        return matchesAny(internalName, JDK_CLASSES, false);
    }

    /** True if {@code name} is one of {@code names}, or with {@code prefixes} starts with one. */
    private static boolean matchesAny(String name, String[] names, boolean prefixes) {
        for (String candidate : names) {
            if (prefixes ? name.startsWith(candidate) : name.equals(candidate)) {
                return true;
            }
        }
        return false;
    }

    /** {@link #exactBits} for a binary name ({@code a.b.C}), as {@link Class#getName()} gives it. */
    static int exactBitsOfBinaryName(String binaryName) {
        int bits = 0;
        for (WeaveTarget target : ALL) {
            if ((target.bit & EXACT_CLASSES) != 0 && sameButSeparators(target.types[0], binaryName)) {
                bits |= target.bit;
            }
        }
        return bits;
    }

    /** {@link #bitOf} for a binary name ({@code a.b.C}), as {@link Class#getName()} gives it. */
    static int bitOfBinaryName(String binaryName) {
        for (WeaveTarget target : ALL) {
            for (String type : target.types) {
                if (sameButSeparators(type, binaryName)) {
                    return target.bit;
                }
            }
        }
        return 0;
    }

    /** True if internal name {@code internal} ({@code a/b/C}) names binary name {@code binary} ({@code a.b.C}). */
    private static boolean sameButSeparators(String internal, String binary) {
        if (internal.length() != binary.length()) {
            return false;
        }
        for (int i = 0; i < internal.length(); i++) {
            char c = internal.charAt(i);
            if (c != binary.charAt(i) && !(c == '/' && binary.charAt(i) == '.')) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return id;
    }
}
