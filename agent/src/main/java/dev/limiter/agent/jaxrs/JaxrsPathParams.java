package dev.limiter.agent.jaxrs;

import dev.limiter.agent.classfile.AnnotationShape;
import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import java.util.List;

/**
 * Finds, at weave time, which argument of a resource method carries {@code @PathParam(NAME)}, so a
 * {@code path-param:NAME} key can be read from that argument at run time with no request parsing (and without a
 * servlet container). The annotation may sit on the method itself or, by JAX-RS annotation inheritance, on the
 * interface or superclass method it implements. On Quarkus REST a parameter bound by name counts too
 * ({@code @RestPath}, or no annotation and a name in the {@code @Path} template).
 */
public final class JaxrsPathParams {

    private static final String REST_PATH = "org.jboss.resteasy.reactive.RestPath";

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
            return boundByName(type, annotated, ns, name);
        } catch (RuntimeException unreadable) {
            return -1;
        }
    }

    /**
     * Quarkus REST binds path parameters by name too: a parameter annotated {@code @RestPath} (its value, or the
     * parameter's own name when it has none), or one without any annotation whose name is a variable of the
     * method's or the class's {@code @Path} template. Names are in the class file when it was compiled with
     * {@code -parameters}, which Quarkus builds do.
     */
    private static int boundByName(ClassShape type, MethodShape annotated, JaxrsNamespace ns, String name) {
        String template = pathOf(annotated.annotations(), ns) + "/" + pathOf(type.annotations(), ns);
        boolean inTemplate = template.contains("{" + name + "}") || template.contains("{" + name + ":");
        for (int i = 0; i < annotated.parameterCount(); i++) {
            List<AnnotationShape> annotations = annotated.annotationsOf(i);
            String parameter = annotated.parameterName(i);
            AnnotationShape restPath = JaxrsAnnotatedMethod.annotationNamed(annotations, REST_PATH);
            if (restPath != null) {
                String bound = restPath.value() == null || restPath.value().isEmpty() ? parameter : restPath.value();
                if (name.equals(bound)) {
                    return i;
                }
            } else if (annotations.isEmpty() && inTemplate && name.equals(parameter)) {
                return i;
            }
        }
        return -1;
    }

    private static String pathOf(List<AnnotationShape> annotations, JaxrsNamespace ns) {
        AnnotationShape path = JaxrsAnnotatedMethod.annotationNamed(annotations, ns.type("Path"));
        return path == null || path.value() == null ? "" : path.value();
    }
}
