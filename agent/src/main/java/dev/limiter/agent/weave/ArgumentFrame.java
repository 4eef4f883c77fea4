package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * The locals of a stack map frame that holds only a method's receiver and arguments (and, for a plain method,
 * the local its advice adds), in ASM's expanded ({@code F_NEW}) form: what the code we add at the edges of a
 * method can rely on.
 *
 * <p>The advice we insert needs frames only where it branches: the start of the original body, the path that
 * skips the body, and the exception handler around it. At each of those places the method's own locals are
 * either not yet assigned or no longer needed, so a frame that declares just the arguments is valid there
 * (the verifier treats the undeclared slots as unusable), and no class hierarchy is needed to compute it
 * (ASM's {@code COMPUTE_FRAMES} would load classes to merge types: not allowed during a transformation).
 */
final class ArgumentFrame {

    private final Object[] locals;
    private final boolean written;

    /**
     * The frame of instance method {@code descriptor} of class {@code owner} (an internal name); {@code written}
     * false for class files older than Java 6, which have no frames.
     */
    ArgumentFrame(String owner, String descriptor, boolean written) {
        this(owner, descriptor, false, written);
    }

    /** The frame of a method, static ({@code isStatic}: no receiver) or not. */
    ArgumentFrame(String owner, String descriptor, boolean isStatic, boolean written) {
        this(locals(owner, descriptor, isStatic), written);
    }

    private ArgumentFrame(Object[] locals, boolean written) {
        this.locals = locals;
        this.written = written;
    }

    /** This frame with one more local, of verification type {@code type}, in {@code slot} (unused slots between). */
    ArgumentFrame withLocal(int slot, Object type) {
        return new ArgumentFrame(withLocal(locals, locals.length, slot, type), written);
    }

    /** A frame whose only local is one of verification type {@code type} in {@code slot}. */
    ArgumentFrame onlyLocal(int slot, Object type) {
        return new ArgumentFrame(withLocal(new Object[0], 0, slot, type), written);
    }

    /**
     * The first {@code count} entries of expanded frame locals {@code locals}, then {@code TOP} up to
     * {@code slot}, then {@code type} there ({@code long} and {@code double} take one entry and two slots).
     */
    static Object[] withLocal(Object[] locals, int count, int slot, Object type) {
        int slots = 0;
        for (int i = 0; i < count; i++) {
            slots += locals[i] == Opcodes.LONG || locals[i] == Opcodes.DOUBLE ? 2 : 1;
        }
        if (slots > slot) {
            throw new IllegalStateException("a frame uses slot " + slot + " already");
        }
        Object[] result = new Object[count + slot - slots + 1];
        System.arraycopy(locals, 0, result, 0, count);
        for (int i = count; i < result.length - 1; i++) {
            result[i] = Opcodes.TOP;
        }
        result[result.length - 1] = type;
        return result;
    }

    /** Writes the frame at the current position, with {@code stackTop} (or nothing) on the operand stack. */
    void visit(MethodVisitor target, String stackTop) {
        if (written) {
            target.visitFrame(Opcodes.F_NEW, locals.length, locals, stackTop == null ? 0 : 1,
                    stackTop == null ? null : new Object[] {stackTop});
        }
    }

    /**
     * The receiver (type {@code owner}, an internal name) unless {@code isStatic}, followed by the arguments of
     * {@code descriptor}.
     */
    private static Object[] locals(String owner, String descriptor, boolean isStatic) {
        Type[] arguments = Type.getArgumentTypes(descriptor);
        int first = isStatic ? 0 : 1;
        Object[] locals = new Object[arguments.length + first];
        if (!isStatic) {
            locals[0] = owner;
        }
        for (int i = 0; i < arguments.length; i++) {
            locals[i + first] = verificationType(arguments[i]);
        }
        return locals;
    }

    private static Object verificationType(Type type) {
        switch (type.getSort()) {
            case Type.BOOLEAN:
            case Type.CHAR:
            case Type.BYTE:
            case Type.SHORT:
            case Type.INT:
                return Opcodes.INTEGER;
            case Type.FLOAT:
                return Opcodes.FLOAT;
            case Type.LONG:
                return Opcodes.LONG;
            case Type.DOUBLE:
                return Opcodes.DOUBLE;
            default:
                return type.getInternalName(); // an object (internal name) or an array (its descriptor)
        }
    }
}
