package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Adds the limiter's check around an HTTP client's call method, {@code (request, handler)} or
 * {@code (request, handler, push)}, returning the response or its future ({@code HttpClientFacade.send} and
 * {@code sendAsync} of {@code java.net.http}), written with ASM alone like {@link ReactiveEntryAdvice}:
 *
 * <pre>
 *   Object ours;
 *   try { ours = ClientBridge.enter(this, request, handler, push or null, async); } catch (Throwable t) { ours = null; }
 *   if (ours != null) throw (Throwable) ours;            // a blocking call: the rejection
 *   if (ours != null) return (CompletableFuture) ours;   // an asynchronous one: failed, or delayed
 *   try { body, where every return r becomes return (T) ClientBridge.exit(r) }
 *   catch (any t) { ClientBridge.failed(); throw t; }
 * </pre>
 *
 * A method is asynchronous when it returns a {@code CompletableFuture}. Only that type and {@code Throwable} are
 * named beside the bridge, so the woven class loads nothing new.
 */
final class ClientCallAdvice extends ExitOnEveryPathAdvice {

    private static final String FUTURE = "java/util/concurrent/CompletableFuture";
    private static final String ENTER = "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Z)"
            + "Ljava/lang/Object;";

    private final String bridge;
    private final String returnType;
    private final int argumentCount;
    private final boolean async;

    ClientCallAdvice(MethodVisitor target, String owner, String descriptor, boolean frames, String bridge) {
        // the enter call needs five stack slots: the client, three arguments and the flag
        super(target, new ArgumentFrame(owner, descriptor, frames), Type.getReturnType(descriptor).getInternalName(),
                bridge, "failed", 5);
        this.bridge = bridge;
        this.returnType = Type.getReturnType(descriptor).getInternalName();
        this.argumentCount = Type.getArgumentTypes(descriptor).length;
        this.async = FUTURE.equals(returnType);
    }

    @Override
    void enter() {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        if (argumentCount >= 3) {
            mv.visitVarInsn(Opcodes.ALOAD, 3);
        } else {
            mv.visitInsn(Opcodes.ACONST_NULL);
        }
        mv.visitInsn(async ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "enter", ENTER, false);
    }

    /** A blocking call throws the answer (the rejection); an asynchronous one returns it (its future). */
    @Override
    void answer(String type) {
        if (async) {
            super.answer(type);
        } else {
            mv.visitTypeInsn(Opcodes.CHECKCAST, THROWABLE);
            mv.visitInsn(Opcodes.ATHROW);
        }
    }

    /** Only a returned value is handed over: a throw is the catch-all's. */
    @Override
    boolean exitsAt(int opcode) {
        return opcode == Opcodes.ARETURN;
    }

    /** {@code return (T) ClientBridge.exit(r)}: the value on the stack is replaced by the one returned. */
    @Override
    void exit() {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "exit", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
        mv.visitTypeInsn(Opcodes.CHECKCAST, returnType);
    }

    /** {@code ClientBridge.failed()}. */
    @Override
    void thrownExit() {
        super.exit();
    }
}
