package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Adds the limiter's check around a request handler that serves its request to the end on the calling thread, a
 * void method whose last two arguments are the request and the response (Helidon 4's
 * {@code HttpRoutingImpl.route(ctx, request, response)}), written with ASM alone like {@link ServletEntryAdvice}:
 *
 * <pre>
 *   Object token;
 *   try { token = HandlerBridge.enter(request, response); } catch (Throwable t) { token = null; }
 *   if (token == HandlerBridge.ANSWERED) return;                   // the bridge wrote the rejection
 *   try { body, where every return first calls HandlerBridge.exit(token) }
 *   catch (any t) { HandlerBridge.exit(token); throw t; }
 * </pre>
 *
 * The token (what an admitted request holds, or null) lives in a new local, as {@link TokenExitAdvice} keeps it. The
 * bridge class is the target's ({@link #BRIDGE} by default): any with the same static methods and constant.
 */
final class HandlerEntryAdvice extends TokenExitAdvice {

    static final String BRIDGE = "dev/limiter/bootstrap/HandlerBridge";

    private final String bridge;
    private final int requestSlot;
    private final int responseSlot;

    /**
     * @param maxLocals the method's own local slots: the token goes in the next one
     * @param bridge the bridge's internal name, or null for {@link #BRIDGE}
     */
    HandlerEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames, int maxLocals,
            String bridge) {
        this(target, new ArgumentFrame(owner, descriptor, frames), descriptor, maxLocals,
                bridge == null ? BRIDGE : bridge);
    }

    private HandlerEntryAdvice(MethodVisitor target, ArgumentFrame arguments, String descriptor, int maxLocals,
            String bridge) {
        super(target, arguments, bridge, "exit", 2, maxLocals);
        this.bridge = bridge;
        Type[] parameters = Type.getArgumentTypes(descriptor);
        int slot = 1; // the receiver
        for (int i = 0; i < parameters.length - 2; i++) {
            slot += parameters[i].getSize();
        }
        this.requestSlot = slot;
        this.responseSlot = slot + 1;
    }

    @Override
    void enter() {
        mv.visitVarInsn(Opcodes.ALOAD, requestSlot);
        mv.visitVarInsn(Opcodes.ALOAD, responseSlot);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "enter",
                "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", false);
        mv.visitVarInsn(Opcodes.ASTORE, token);
    }

    /** An answered request: the bridge wrote the rejection; leave without running the body (nothing to give back). */
    @Override
    void afterEnter(Label body) {
        mv.visitVarInsn(Opcodes.ALOAD, token);
        mv.visitFieldInsn(Opcodes.GETSTATIC, bridge, "ANSWERED", "Ljava/lang/Object;");
        mv.visitJumpInsn(Opcodes.IF_ACMPNE, body);
        mv.visitInsn(Opcodes.RETURN);
    }

    @Override
    void exit() {
        mv.visitVarInsn(Opcodes.ALOAD, token);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "exit", "(Ljava/lang/Object;)V", false);
    }

    @Override
    int exitStack() {
        return 1;
    }
}
