package dev.limiter.agent.classfile;

import java.util.List;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * One method (or constructor) as its class file declares it: what the planner of woven sites and the JAX-RS
 * matcher ask about, read without loading a class.
 *
 * @param name                 the method's name ({@code <init>} for a constructor)
 * @param descriptor           its descriptor, {@code (Ljava/lang/String;J)V}
 * @param access               its access flags ({@link Opcodes}{@code .ACC_*})
 * @param exceptions           binary names of the exceptions it declares
 * @param annotations          its runtime-visible annotations
 * @param parameterAnnotations the runtime-visible annotations of each parameter, by index
 * @param parameterNames       the parameters' names, by index, when the class file has them (compiled with
 *                             {@code -parameters}, as Quarkus builds are); else empty
 */
public record MethodShape(String name, String descriptor, int access, List<String> exceptions,
        List<AnnotationShape> annotations, List<List<AnnotationShape>> parameterAnnotations,
        List<String> parameterNames) {

    /** A method with a name, not a constructor or type initialiser. */
    public boolean isMethod() {
        return name.charAt(0) != '<';
    }

    public boolean isConstructor() {
        return name.equals("<init>");
    }

    public boolean isPublic() {
        return has(Opcodes.ACC_PUBLIC);
    }

    public boolean isPrivate() {
        return has(Opcodes.ACC_PRIVATE);
    }

    public boolean isStatic() {
        return has(Opcodes.ACC_STATIC);
    }

    public boolean isAbstract() {
        return has(Opcodes.ACC_ABSTRACT);
    }

    public boolean isNative() {
        return has(Opcodes.ACC_NATIVE);
    }

    public boolean isBridge() {
        return has(Opcodes.ACC_BRIDGE);
    }

    public boolean isSynthetic() {
        return has(Opcodes.ACC_SYNTHETIC);
    }

    /** The number of declared parameters. */
    public int parameterCount() {
        return Type.getArgumentTypes(descriptor).length;
    }

    /** The type of parameter {@code index}, as ASM describes it (a primitive, an array or an object type). */
    public Type parameterType(int index) {
        return Type.getArgumentTypes(descriptor)[index];
    }

    /** The parameter part of the descriptor, {@code (Ljava/lang/String;J)}: what overriding compares. */
    public String parameterDescriptor() {
        return descriptor.substring(0, descriptor.indexOf(')') + 1);
    }

    /** The annotations of parameter {@code index} (none for a parameter the class file says nothing about). */
    public List<AnnotationShape> annotationsOf(int index) {
        return index < parameterAnnotations.size() ? parameterAnnotations.get(index) : List.of();
    }

    /** The name of parameter {@code index} as compiled with {@code -parameters}, or null if the file has none. */
    public String parameterName(int index) {
        return index < parameterNames.size() ? parameterNames.get(index) : null;
    }

    private boolean has(int flag) {
        return (access & flag) != 0;
    }
}
