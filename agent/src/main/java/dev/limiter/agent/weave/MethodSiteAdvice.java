package dev.limiter.agent.weave;

import dev.limiter.agent.method.SiteToWeave;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Adds the limiter's check around the body of one plain or JAX-RS resource method a rule or {@code @Limit} names:
 *
 * <pre>
 *   Object token;
 *   try { token = LimiterBridge.methodEnter(SITE, KEY, COST); } catch (Throwable t) { token = null; }
 *   if (token instanceof Throwable) throw (Throwable) token;     // the rejection; the body does not run
 *   try { body, where every return first calls LimiterBridge.methodExit(SITE, token) }
 *   catch (any t) { LimiterBridge.methodExit(SITE, token); throw t; }
 * </pre>
 *
 * {@code SITE} is the site's int id, {@code KEY} the key argument (boxed if primitive) or null, {@code COST} the
 * cost argument read as a {@code long} (an integer widened, an array or collection through
 * {@code LimiterBridge.sizeOf}) or 1. The token lives in a new local after the method's own
 * ({@code maxLocals}), as {@link TokenExitAdvice} keeps it.
 */
final class MethodSiteAdvice extends TokenExitAdvice {

    private static final String BRIDGE = "dev/limiter/bootstrap/LimiterBridge";

    private final SiteToWeave site;
    private final Type[] parameters;
    private final int firstParameterSlot;

    /**
     * @param maxLocals the method's own local slots: the token goes in the next one
     */
    MethodSiteAdvice(MethodVisitor target, String owner, int access, String descriptor, boolean frames,
            SiteToWeave site, int maxLocals) {
        this(target, new ArgumentFrame(owner, descriptor, (access & Opcodes.ACC_STATIC) != 0, frames), access,
                descriptor, site, maxLocals);
    }

    private MethodSiteAdvice(MethodVisitor target, ArgumentFrame arguments, int access, String descriptor,
            SiteToWeave site, int maxLocals) {
        // enter: the site (1 slot), the key (1; 2 while a long or double is loaded), the cost (a long: 2)
        super(target, arguments, BRIDGE, "methodExit", 4, maxLocals);
        this.site = site;
        this.parameters = Type.getArgumentTypes(descriptor);
        this.firstParameterSlot = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
    }

    @Override
    void enter() {
        mv.visitLdcInsn(site.siteId());
        if (site.keyIndex() < 0) {
            mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
            Type key = parameters[site.keyIndex()];
            mv.visitVarInsn(key.getOpcode(Opcodes.ILOAD), slotOf(site.keyIndex()));
            box(key);
        }
        if (site.costIndex() < 0) {
            mv.visitInsn(Opcodes.LCONST_1);
        } else {
            loadCost(parameters[site.costIndex()], slotOf(site.costIndex()));
        }
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "methodEnter", "(ILjava/lang/Object;J)Ljava/lang/Object;",
                false);
        mv.visitVarInsn(Opcodes.ASTORE, token);
    }

    @Override
    void afterEnter(Label body) {
        mv.visitVarInsn(Opcodes.ALOAD, token);
        mv.visitTypeInsn(Opcodes.INSTANCEOF, THROWABLE);
        mv.visitJumpInsn(Opcodes.IFEQ, body);
        mv.visitVarInsn(Opcodes.ALOAD, token);
        mv.visitTypeInsn(Opcodes.CHECKCAST, THROWABLE);
        mv.visitInsn(Opcodes.ATHROW);
    }

    @Override
    void exit() {
        mv.visitLdcInsn(site.siteId());
        mv.visitVarInsn(Opcodes.ALOAD, token);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "methodExit", "(ILjava/lang/Object;)V", false);
    }

    @Override
    int exitStack() {
        return 2;
    }

    private int slotOf(int parameter) {
        int slot = firstParameterSlot;
        for (int i = 0; i < parameter; i++) {
            slot += parameters[i].getSize();
        }
        return slot;
    }

    /** Boxes the primitive on the stack, as a key argument is passed (an object as it is). */
    private void box(Type type) {
        if (type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY) {
            return;
        }
        String boxed;
        switch (type.getSort()) {
            case Type.BOOLEAN -> boxed = "java/lang/Boolean";
            case Type.CHAR -> boxed = "java/lang/Character";
            case Type.BYTE -> boxed = "java/lang/Byte";
            case Type.SHORT -> boxed = "java/lang/Short";
            case Type.INT -> boxed = "java/lang/Integer";
            case Type.FLOAT -> boxed = "java/lang/Float";
            case Type.LONG -> boxed = "java/lang/Long";
            case Type.DOUBLE -> boxed = "java/lang/Double";
            default -> throw new IllegalStateException("cannot box " + type);
        }
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, boxed, "valueOf", "(" + type.getDescriptor() + ")L" + boxed + ";",
                false);
    }

    /** Pushes the cost argument as a long: an integer widened, a long as it is, an array or collection sized. */
    private void loadCost(Type type, int slot) {
        switch (type.getSort()) {
            case Type.INT, Type.SHORT, Type.BYTE -> {
                mv.visitVarInsn(Opcodes.ILOAD, slot);
                mv.visitInsn(Opcodes.I2L);
            }
            case Type.LONG -> mv.visitVarInsn(Opcodes.LLOAD, slot);
            case Type.OBJECT, Type.ARRAY -> {
                mv.visitVarInsn(Opcodes.ALOAD, slot);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "sizeOf", "(Ljava/lang/Object;)J", false);
            }
            default -> throw new IllegalStateException("no cost in a " + type);
        }
    }
}
