package dev.limiter.agent.weave;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Adds the limiter's check around a reactive server entry point that takes (request, response), or the request
 * alone, and returns the publisher of the exchange's end (WebFlux's {@code HttpWebHandlerAdapter.handle}), written
 * with ASM alone like {@link ServletEntryAdvice}:
 *
 * <pre>
 *   Object ours;
 *   try { ours = ReactiveBridge.enter(request, response); } catch (Throwable t) { ours = null; }
 *   if (ours != null) return (Mono) ours;                  // the rejection the agent wrote
 *   try { body, where every return r becomes return (Mono) ReactiveBridge.exit(r) }
 *   catch (any t) { ReactiveBridge.failed(); throw t; }
 * </pre>
 *
 * grpc-java's {@code startCall(ServerCall, Metadata)} has the same shape (the call and its headers in, the listener
 * of the call's end out) and gets the same code calling {@code GrpcBridge} instead ({@link #GRPC_BRIDGE}). A method
 * of the request alone (Micronaut's {@code RequestLifecycle.normalFlow(HttpRequest)}, the flow of its response
 * out) gets it too, its bridge's {@code enter} taking that one argument.
 *
 * The returned publisher is only handed to the bridge as {@code Object} and cast back to the method's return
 * type, so this code names no framework type but that one, which the woven class sees anyway. As in
 * {@link ServletEntryAdvice}, the catch-all comes after the method's own handlers and leaves out the exit calls.
 */
final class ReactiveEntryAdvice extends MethodVisitor {

    static final String BRIDGE = "dev/limiter/bootstrap/ReactiveBridge";
    static final String GRPC_BRIDGE = "dev/limiter/bootstrap/GrpcBridge";
    private static final String THROWABLE = "java/lang/Throwable";
    private static final String OBJECT = "java/lang/Object";

    private final ArgumentFrame arguments;
    private final String returnType;
    /** How many arguments the method has, and so {@code enter} takes: one (the request) or two. */
    private final int entered;
    /** The bridge class called ({@link #BRIDGE} or {@link #GRPC_BRIDGE}): same static methods, its own delegate. */
    private final String bridge;
    private final Label handler = new Label();
    /** Start and end labels of the ranges the catch-all covers: the body without the exit calls. */
    private final List<Label> covered = new ArrayList<>();

    ReactiveEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames, String bridge) {
        super(Opcodes.ASM9, target);
        this.bridge = bridge;
        this.arguments = new ArgumentFrame(owner, descriptor, frames);
        this.returnType = Type.getReturnType(descriptor).getInternalName();
        this.entered = Type.getArgumentTypes(descriptor).length == 1 ? 1 : 2;
    }

    @Override
    public void visitCode() {
        super.visitCode();
        Label enterStart = new Label();
        Label enterEnd = new Label();
        Label enterFailed = new Label();
        Label notOurs = new Label();
        Label body = new Label();
        mv.visitTryCatchBlock(enterStart, enterEnd, enterFailed, THROWABLE);
        mv.visitLabel(enterStart);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        if (entered == 2) {
            mv.visitVarInsn(Opcodes.ALOAD, 2);
        }
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "enter", entered == 2
                ? "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;" : "(Ljava/lang/Object;)Ljava/lang/Object;",
                false);
        mv.visitLabel(enterEnd);
        mv.visitInsn(Opcodes.DUP);
        mv.visitJumpInsn(Opcodes.IFNULL, notOurs);
        mv.visitTypeInsn(Opcodes.CHECKCAST, returnType);
        mv.visitInsn(Opcodes.ARETURN);
        mv.visitLabel(enterFailed);
        arguments.visit(mv, THROWABLE);
        mv.visitInsn(Opcodes.POP);
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitLabel(notOurs);
        arguments.visit(mv, OBJECT);
        mv.visitInsn(Opcodes.POP);
        mv.visitLabel(body);
        arguments.visit(mv, null);
        // the body's own first instruction may carry a frame too: two frames cannot share an offset
        mv.visitInsn(Opcodes.NOP);
        covered.add(body);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode == Opcodes.ARETURN) {
            Label exitStart = new Label();
            Label exitEnd = new Label();
            mv.visitLabel(exitStart);
            covered.add(exitStart);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "exit", "(Ljava/lang/Object;)Ljava/lang/Object;",
                    false);
            mv.visitTypeInsn(Opcodes.CHECKCAST, returnType);
            mv.visitLabel(exitEnd);
            covered.add(exitEnd);
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        Label bodyEnd = new Label();
        mv.visitLabel(bodyEnd);
        covered.add(bodyEnd);
        mv.visitLabel(handler);
        arguments.visit(mv, THROWABLE);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "failed", "()V", false);
        mv.visitInsn(Opcodes.ATHROW);
        for (int i = 0; i < covered.size(); i += 2) {
            mv.visitTryCatchBlock(covered.get(i), covered.get(i + 1), handler, null);
        }
        // the enter call needs two stack slots, the handler one
        super.visitMaxs(Math.max(maxStack, 2), maxLocals);
    }
}
