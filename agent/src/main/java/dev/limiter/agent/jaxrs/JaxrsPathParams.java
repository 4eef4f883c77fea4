package dev.limiter.agent.jaxrs;

import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.annotation.AnnotationValue;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterList;

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
     * Index of the parameter annotated {@code @PathParam(name)} of namespace {@code ns}, on {@code method} or on
     * the method whose JAX-RS annotations it inherits; -1 if there is none (or the description cannot be read).
     */
    public static int parameterIndex(MethodDescription method, JaxrsNamespace ns, String name) {
        if (method == null || name == null) {
            return -1;
        }
        try {
            MethodDescription annotated = JaxrsAnnotatedMethod.find(method, ns);
            if (annotated == null) {
                return -1;
            }
            String pathParam = ns.type("PathParam");
            ParameterList<?> parameters = annotated.getParameters();
            for (int i = 0; i < parameters.size(); i++) {
                AnnotationDescription annotation =
                        JaxrsAnnotatedMethod.annotationNamed(parameters.get(i).getDeclaredAnnotations(), pathParam);
                if (annotation != null && name.equals(value(annotation))) {
                    return i;
                }
            }
        } catch (RuntimeException unreadable) {
            return -1;
        }
        return -1;
    }

    private static String value(AnnotationDescription annotation) {
        AnnotationValue<?, ?> value = annotation.getValue("value");
        return value.resolve(String.class);
    }
}
