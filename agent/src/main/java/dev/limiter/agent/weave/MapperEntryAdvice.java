package dev.limiter.agent.weave;

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
final class MapperEntryAdvice extends EnterAdvice {

    MapperEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
        super(target, new ArgumentFrame(owner, descriptor, frames), Type.getReturnType(descriptor).getInternalName());
    }

    @Override
    void enter() {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, ServletEntryAdvice.BRIDGE, "rejectionResponse",
                "(Ljava/lang/Object;)Ljava/lang/Object;", false);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        super.visitMaxs(Math.max(maxStack, 2), maxLocals); // the response and its null test
    }
}
