package dev.limiter.agent.jaxrs;

import dev.limiter.agent.classfile.AnnotationShape;
import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;

/**
 * Finds, at weave time, which argument of a resource method carries {@code @PathParam(NAME)}, so a
 * {@code path-param:NAME} key can be read from that argument at run time with no request parsing (and without a
 * servlet container). The annotation may sit on the method itself or, by JAX-RS annotation inheritance, on the
 * interface or superclass method it implements.
 */
public final class JaxrsPathParams {

    private JaxrsPathParams() {
    }

    /**
     * Index of the parameter annotated {@code @PathParam(name)} of namespace {@code ns}, on {@code method} of
     * {@code type} or on the method whose JAX-RS annotations it inherits; -1 if there is none (or a class file
     * cannot be read).
     */
    public static int parameterIndex(ClassShape type, MethodShape method, JaxrsNamespace ns, String name,
            ClassShapes shapes) {
        if (type == null || method == null || name == null) {
            return -1;
        }
        try {
            MethodShape annotated = JaxrsAnnotatedMethod.find(type, method, ns, shapes);
            if (annotated == null) {
                return -1;
            }
            String pathParam = ns.type("PathParam");
            for (int i = 0; i < annotated.parameterCount(); i++) {
                AnnotationShape annotation = JaxrsAnnotatedMethod.annotationNamed(annotated.annotationsOf(i), pathParam);
                if (annotation != null && name.equals(annotation.value())) {
                    return i;
                }
            }
        } catch (RuntimeException unreadable) {
            return -1;
        }
        return -1;
    }
}
