package dev.limiter.agent.classfile;

import java.util.List;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * One class as its class file declares it: name, super types, annotations and methods, read by
 * {@link ClassShapes} with ASM and never by loading the class (the agent decides while a class is being defined,
 * and reflection would load and link the types of its signatures).
 *
 * @param name        binary name, {@code com.acme.Outer$Inner}
 * @param access      access flags ({@link Opcodes}{@code .ACC_*})
 * @param superName   binary name of the superclass, or null ({@code java.lang.Object}, interfaces' none counts)
 * @param interfaces  binary names of the directly implemented interfaces
 * @param annotations runtime-visible annotations of the class
 * @param methods     declared methods and constructors, in class-file order
 */
public record ClassShape(String name, int access, String superName, List<String> interfaces,
        List<AnnotationShape> annotations, List<MethodShape> methods) {

    public boolean isInterface() {
        return (access & Opcodes.ACC_INTERFACE) != 0;
    }

    public boolean isAnnotation() {
        return (access & Opcodes.ACC_ANNOTATION) != 0;
    }

    public boolean isAbstract() {
        return (access & Opcodes.ACC_ABSTRACT) != 0;
    }

    public boolean isPublic() {
        return (access & Opcodes.ACC_PUBLIC) != 0;
    }

    /** The declared method with this name and descriptor, or null. */
    public MethodShape method(String methodName, String descriptor) {
        for (MethodShape method : methods) {
            if (method.name().equals(methodName) && method.descriptor().equals(descriptor)) {
                return method;
            }
        }
        return null;
    }
}
