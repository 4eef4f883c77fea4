package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Adds to the start of an application's {@code ExceptionMapper.toResponse(E)}: if the exception is a rejection
 * the limiter threw, return the limiter's own response instead of running the mapper, so an application's
 * {@code ExceptionMapper<Throwable>} cannot turn our 429 into a 500. Written with ASM alone, like
 * {@link ServletEntryAdvice}.
 *
 * <pre>
 *   Object ours;
 *   try { ours = LimiterBridge.rejectionResponse(exception); } catch (Throwable t) { ours = null; }
 *   if (ours != null) return (Response) ours;
 *   body
 * </pre>
 *
 * The response is handled as {@code Object} up to the cast to the method's own return type, so the code serves
 * javax and jakarta alike.
 */
final class MapperEntryAdvice extends MethodVisitor {

    private static final String THROWABLE = "java/lang/Throwable";
    private static final String OBJECT = "java/lang/Object";

    private final ArgumentFrame arguments;
    private final String returnType;

    MapperEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
        super(Opcodes.ASM9, target);
        this.arguments = new ArgumentFrame(owner, descriptor, frames);
        this.returnType = Type.getReturnType(descriptor).getInternalName();
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
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, ServletEntryAdvice.BRIDGE, "rejectionResponse",
                "(Ljava/lang/Object;)Ljava/lang/Object;", false);
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
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        super.visitMaxs(Math.max(maxStack, 2), maxLocals); // the response and its null test
    }
}
