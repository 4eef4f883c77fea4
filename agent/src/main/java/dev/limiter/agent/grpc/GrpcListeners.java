package dev.limiter.agent.grpc;

import dev.limiter.agent.http.PermitRelease;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The two {@code ServerCall.Listener}s the adapter returns from a woven {@code startCall}, as classes defined in
 * the application's loader (in package {@code io.grpc}, through {@link MethodHandles.Lookup#defineClass}, a public
 * API: no {@code Unsafe}, no reflection into {@code ClassLoader}):
 * <ul>
 *   <li>{@value #REJECTED}: a listener that does nothing, for a call the agent has closed with
 *       {@code RESOURCE_EXHAUSTED} ({@code startCall} must return a listener; null makes grpc-java throw).</li>
 *   <li>{@value #RELEASING}: a {@code ForwardingServerCallListener.SimpleForwardingServerCallListener} over the
 *       service's own listener that runs a JDK {@link Runnable} (the call's {@link PermitRelease}) first in
 *       {@code onComplete} and {@code onCancel}: grpc-java calls exactly one of them when the call ends, however it
 *       ends (closed by the service, cancelled by the client, deadline, transport gone).</li>
 * </ul>
 *
 * <p>Why classes and not method handles alone, as for WebFlux: {@code ServerCall.Listener} is an abstract class
 * (no proxy can extend it) and grpc-api has no public concrete listener. The classes name only grpc-api types and
 * {@code Runnable}, so they link in any loader that sees grpc-api; defined once per loader, at the first call a
 * rule matches, never at start-up.
 */
final class GrpcListeners {

    static final String REJECTED = "io.grpc.DevLimiterRejectedCallListener";
    static final String RELEASING = "io.grpc.DevLimiterReleasingCallListener";

    private static final String LISTENER = "io/grpc/ServerCall$Listener";
    private static final String FORWARDING = "io/grpc/ForwardingServerCallListener$SimpleForwardingServerCallListener";
    private static final String RUNNABLE = "java/lang/Runnable";

    /** The one no-op listener of this loader (it has no state, so every rejected call shares it). */
    final Object rejected;
    /** {@code (Object listener, Runnable release) -> Object}: the releasing listener's constructor. */
    private final MethodHandle releasing;

    private GrpcListeners(Object rejected, MethodHandle releasing) {
        this.rejected = rejected;
        this.releasing = releasing;
    }

    /** Defines (or finds, if defined already) both classes in {@code loader}. */
    static GrpcListeners define(ClassLoader loader) throws Throwable {
        Class<?> listener = GrpcApi.type("io.grpc.ServerCall$Listener", loader);
        MethodHandles.Lookup inGrpc = MethodHandles.privateLookupIn(listener, MethodHandles.lookup());
        Class<?> rejectedClass = defineOrFind(inGrpc, REJECTED, rejectedListener(), loader);
        Class<?> releasingClass = defineOrFind(inGrpc, RELEASING, releasingListener(), loader);
        Object rejected = inGrpc.findConstructor(rejectedClass, MethodType.methodType(void.class)).invoke();
        MethodHandle releasing = inGrpc.findConstructor(releasingClass,
                MethodType.methodType(void.class, listener, Runnable.class))
                .asType(MethodType.methodType(Object.class, Object.class, Runnable.class));
        return new GrpcListeners(rejected, releasing);
    }

    /** {@code listener} wrapped to run {@code release} when its call ends. */
    Object releasing(Object listener, Runnable release) throws Throwable {
        return releasing.invokeExact(listener, release);
    }

    private static Class<?> defineOrFind(MethodHandles.Lookup lookup, String name, byte[] bytes, ClassLoader loader)
            throws Throwable {
        try {
            return Class.forName(name, false, loader); // defined before (another agent instance, a test)
        } catch (ClassNotFoundException notYet) {
            try {
                return lookup.defineClass(bytes);
            } catch (LinkageError raced) {
                return Class.forName(name, false, loader);
            }
        }
    }

    /** {@code public final class DevLimiterRejectedCallListener extends ServerCall.Listener {}}. */
    private static byte[] rejectedListener() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
                REJECTED.replace('.', '/'), null, LISTENER, null);
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, LISTENER, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /**
     * <pre>
     * public final class DevLimiterReleasingCallListener extends SimpleForwardingServerCallListener {
     *     private final Runnable release;
     *     public DevLimiterReleasingCallListener(ServerCall.Listener delegate, Runnable release) {
     *         super(delegate); this.release = release;
     *     }
     *     public void onComplete() { release.run(); super.onComplete(); }
     *     public void onCancel() { release.run(); super.onCancel(); }
     * }
     * </pre>
     * The release runs first so a service whose own {@code onCancel} throws still gives its permits back; it never
     * throws ({@link PermitRelease#run}).
     */
    private static byte[] releasingListener() {
        String self = RELEASING.replace('.', '/');
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, self, null,
                FORWARDING, null);
        writer.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, "release", "L" + RUNNABLE + ";", null, null)
                .visitEnd();
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>",
                "(L" + LISTENER + ";L" + RUNNABLE + ";)V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ALOAD, 1);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, FORWARDING, "<init>", "(L" + LISTENER + ";)V", false);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ALOAD, 2);
        init.visitFieldInsn(Opcodes.PUTFIELD, self, "release", "L" + RUNNABLE + ";");
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        for (String end : new String[] {"onComplete", "onCancel"}) {
            MethodVisitor method = writer.visitMethod(Opcodes.ACC_PUBLIC, end, "()V", null, null);
            method.visitCode();
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitFieldInsn(Opcodes.GETFIELD, self, "release", "L" + RUNNABLE + ";");
            method.visitMethodInsn(Opcodes.INVOKEINTERFACE, RUNNABLE, "run", "()V", true);
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitMethodInsn(Opcodes.INVOKESPECIAL, FORWARDING, end, "()V", false);
            method.visitInsn(Opcodes.RETURN);
            method.visitMaxs(0, 0);
            method.visitEnd();
        }
        writer.visitEnd();
        return writer.toByteArray();
    }
}
