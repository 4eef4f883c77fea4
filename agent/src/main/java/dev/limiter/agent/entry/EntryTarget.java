package dev.limiter.agent.entry;

import net.bytebuddy.jar.asm.Opcodes;

/**
 * One library method the agent weaves an entry check into, described where its adapter lives (as OpenTelemetry's
 * {@code TypeInstrumentation} is): the types whose implementations it matches (or the one class it is woven in),
 * the class file that tells a loader can see the library, the method's names, access and descriptor, and the
 * {@link AdviceShape} woven into it. The transformer derives every check it makes from these descriptions, so a
 * new target is one description more, registered with its {@link EntryPoint}.
 *
 * <p>Why plain data: every class the application loads is checked against the descriptions; a lambda or a
 * subclass per target is one more class loaded (or spun) on the application's start-up thread.
 */
public final class EntryTarget {

    /** A short name for tests and the log ({@code servlet-jakarta}). */
    public final String id;
    /** Internal names ({@code a/b/C}) of the types whose implementations are woven, or the one class woven. */
    public final String[] types;
    /** The class file a loader finds if it can see this target's API; null: the one named class ({@link #exact}). */
    public final String apiResource;
    /** Names of the woven methods. */
    public final String[] methods;
    /** Access flags a woven method must have. */
    public final int requiredAccess;
    /** Access flags a woven method must not have; abstract and native methods have no body to weave. */
    public final int excludedAccess;
    /** The advice woven into those methods. */
    public final AdviceShape shape;
    /** What a woven method's descriptor starts with (for most shapes, the whole descriptor). */
    public final String descriptorStart;
    /** The bootstrap bridge class the advice calls ({@link AdviceShape#PUBLISHER}), else null. */
    public final String bridge;
    /**
     * The JDK module the one named class belongs to ({@code java.net.http}), else null: the agent never weaves the
     * JDK but for these classes, and makes their module read the bridge's before anything is woven.
     */
    public final String jdkModule;

    private EntryTarget(String id, String[] types, String apiResource, String[] methods, int requiredAccess,
            int excludedAccess, AdviceShape shape, String descriptorStart, String bridge, String jdkModule) {
        this.jdkModule = jdkModule;
        this.id = id;
        this.types = types;
        this.apiResource = apiResource;
        this.methods = methods;
        this.requiredAccess = requiredAccess;
        this.excludedAccess = excludedAccess | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE;
        this.shape = shape;
        this.descriptorStart = descriptorStart;
        this.bridge = bridge;
    }

    /**
     * A target woven in every implementation of {@code types} a loader that finds {@code apiResource} defines:
     * the methods named {@code methods} with {@code requiredAccess} and none of {@code excludedAccess}, whose
     * descriptor starts with {@code descriptorStart}.
     */
    public static EntryTarget implementations(String id, String[] types, String apiResource, String[] methods,
            int requiredAccess, int excludedAccess, AdviceShape shape, String descriptorStart) {
        return new EntryTarget(id, types, apiResource, methods, requiredAccess, excludedAccess, shape,
                descriptorStart, null, null);
    }

    /**
     * {@link #implementations(String, String[], String, String[], int, int, AdviceShape, String)} whose advice calls
     * {@code bridge} (a {@link AdviceShape#CLIENT_CALL}, say).
     */
    public static EntryTarget implementations(String id, String[] types, String apiResource, String[] methods,
            int requiredAccess, int excludedAccess, AdviceShape shape, String descriptorStart, String bridge) {
        return new EntryTarget(id, types, apiResource, methods, requiredAccess, excludedAccess, shape,
                descriptorStart, bridge, null);
    }

    /**
     * A target woven in the one class {@code type} only, found by its name (no super-type walk, no visibility
     * check): the method {@code method} with exactly {@code descriptor}. {@code bridge}: the bootstrap bridge a
     * {@link AdviceShape#PUBLISHER} advice calls, else null.
     */
    public static EntryTarget exactClass(String id, String type, String method, int requiredAccess,
            AdviceShape shape, String descriptor, String bridge) {
        return new EntryTarget(id, new String[] {type}, null, new String[] {method}, requiredAccess,
                Opcodes.ACC_STATIC, shape, descriptor, bridge, null);
    }

    /**
     * {@link #exactClass} for a class of the JDK's module {@code module}: the one kind of JDK class the agent
     * weaves (an HTTP client's implementation), found by its name like the others.
     */
    public static EntryTarget exactJdkClass(String id, String module, String type, String[] methods,
            int requiredAccess, AdviceShape shape, String descriptorStart, String bridge) {
        return new EntryTarget(id, new String[] {type}, null, methods, requiredAccess, Opcodes.ACC_STATIC, shape,
                descriptorStart, bridge, module);
    }

    /**
     * {@link #exactClass} woven in several methods of the one class {@code type}, those named {@code methods} whose
     * descriptor starts with {@code descriptorStart} and fits {@code shape} (a client's call methods).
     */
    public static EntryTarget exactClass(String id, String type, String[] methods, int requiredAccess,
            AdviceShape shape, String descriptorStart, String bridge) {
        return new EntryTarget(id, new String[] {type}, null, methods, requiredAccess, Opcodes.ACC_STATIC, shape,
                descriptorStart, bridge, null);
    }

    /** True if this target is woven in its one named class only. */
    public boolean exact() {
        return apiResource == null;
    }

    /** True if this target weaves the method {@code name} with {@code access} and {@code descriptor}. */
    public boolean weaves(int access, String name, String descriptor) {
        if ((access & (requiredAccess | excludedAccess)) != requiredAccess || !isOneOf(name, methods)
                || !descriptor.startsWith(descriptorStart)) {
            return false;
        }
        return shape.fits(descriptorStart, descriptor);
    }

    /** True if {@code name} is one of {@code names}. */
    public static boolean isOneOf(String name, String[] names) {
        for (String candidate : names) {
            if (candidate.equals(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return id;
    }
}
