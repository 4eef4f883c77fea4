package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Adds the limiter's check around an HTTP client's call method, written with ASM alone like
 * {@link ReactiveEntryAdvice}: {@code (request, handler)} or {@code (request, handler, push)} returning the
 * response or its future ({@code HttpClientFacade.send} and {@code sendAsync} of {@code java.net.http}), a
 * request's {@code doExecute(target, request, context)} (Apache HttpClient 5), or a call object's own
 * {@code execute()} returning the response and {@code enqueue(callback)} returning nothing (OkHttp); a method of
 * more than three arguments (Apache's async {@code executeImmediate}) passes them all in one array instead, made
 * only if {@code ClientBridge.deciding()} says a rule may decide the call (else the answer is null at once):
 *
 * <pre>
 *   Object ours;
 *   try { ours = ClientBridge.enter(this, arg1 or null, arg2 or null, arg3 or null, async); }
 *   catch (Throwable t) { ours = null; }
 *   if (ours != null) throw (Throwable) ours;            // a blocking call: the rejection
 *   if (ours != null) return (CompletableFuture) ours;   // an asynchronous one: failed, or delayed
 *   if (ours != null) return;                            // a void one: the agent answered its callback
 *   try { body, where every return r becomes return (T) ClientBridge.exit(r) }
 *   catch (any t) { ClientBridge.failed(); throw t; }
 * </pre>
 *
 * A method is asynchronous when it returns a {@code CompletableFuture} or nothing. Only that type and
 * {@code Throwable} are named beside the bridge, so the woven class loads nothing new.
 */
final class ClientCallAdvice extends ReturnedValueAdvice {

    private static final String FUTURE = "java/util/concurrent/CompletableFuture";
    private static final String ENTER = "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Z)"
            + "Ljava/lang/Object;";

    private final int argumentCount;
    private final boolean async;
    private final boolean isVoid;

    ClientCallAdvice(MethodVisitor target, String owner, String descriptor, boolean frames, String bridge) {
        // the enter call needs five stack slots: the client, three arguments and the flag
        super(target, owner, descriptor, frames, bridge, 5);
        this.argumentCount = Type.getArgumentTypes(descriptor).length;
        this.isVoid = Type.getReturnType(descriptor).getSort() == Type.VOID;
        this.async = isVoid || FUTURE.equals(returnType);
    }

    @Override
    void enter() {
        Label decided = null;
        if (argumentCount > 3) { // packed only if a rule may decide the call: no array per call without one
            Label deciding = new Label();
            decided = new Label();
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "deciding", "()Z", false);
            mv.visitJumpInsn(Opcodes.IFNE, deciding);
            mv.visitInsn(Opcodes.ACONST_NULL); // as the bridge answers a call it leaves alone
            mv.visitJumpInsn(Opcodes.GOTO, decided);
            mv.visitLabel(deciding);
            arguments.visit(mv, null);
        }
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        if (argumentCount > 3) { // all of them in one array, in the first place
            mv.visitIntInsn(Opcodes.BIPUSH, argumentCount);
            mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
            for (int argument = 1; argument <= argumentCount; argument++) {
                mv.visitInsn(Opcodes.DUP);
                mv.visitIntInsn(Opcodes.BIPUSH, argument - 1);
                mv.visitVarInsn(Opcodes.ALOAD, argument);
                mv.visitInsn(Opcodes.AASTORE);
            }
            mv.visitInsn(Opcodes.ACONST_NULL);
            mv.visitInsn(Opcodes.ACONST_NULL);
        }
        for (int argument = 1; argument <= 3 && argumentCount <= 3; argument++) {
            if (argument <= argumentCount) {
                mv.visitVarInsn(Opcodes.ALOAD, argument);
            } else {
                mv.visitInsn(Opcodes.ACONST_NULL);
            }
        }
        mv.visitInsn(async ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "enter", ENTER, false);
        if (decided != null) {
            mv.visitLabel(decided);
            arguments.visit(mv, OBJECT);
        }
    }

    /**
     * A blocking call throws the answer (the rejection); an asynchronous one returns it (its future); a void one
     * returns (the agent has answered its callback, or will).
     */
    @Override
    void answer(String type) {
        if (isVoid) {
            mv.visitInsn(Opcodes.POP);
            mv.visitInsn(Opcodes.RETURN);
        } else if (async) {
            super.answer(type);
        } else {
            mv.visitTypeInsn(Opcodes.CHECKCAST, THROWABLE);
            mv.visitInsn(Opcodes.ATHROW);
        }
    }
}
