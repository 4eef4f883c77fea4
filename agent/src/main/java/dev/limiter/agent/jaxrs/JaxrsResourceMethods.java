package dev.limiter.agent.jaxrs;

import dev.limiter.agent.classfile.AnnotationShape;
import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import java.util.HashSet;

/**
 * Which methods are JAX-RS resource methods, decided from class files alone ({@link ClassShapes}, no class
 * loading), so the agent can weave them as their classes load.
 *
 * <p>A resource method is public, non-static, non-abstract, and carries an HTTP-method annotation ({@code @GET},
 * {@code @POST}, {@code @PUT}, {@code @DELETE}, {@code @PATCH}, {@code @HEAD}, {@code @OPTIONS}, or any
 * annotation that is itself annotated {@code @HttpMethod}), directly or inherited from the method it overrides
 * or implements (see {@link JaxrsAnnotatedMethod} for the spec's inheritance rule); its class, a superclass or
 * an interface carries {@code @Path}. Sub-resource locators ({@code @Path} without an HTTP method) are not
 * resource methods: the methods of the object they return are, when that class has {@code @Path} somewhere.
 * Bridge and synthetic methods are never matched, so a covariant or generic override is woven once.
 */
public final class JaxrsResourceMethods {

    private JaxrsResourceMethods() {
    }

    /** True if {@code method}, declared in {@code type}, is a resource method of namespace {@code ns}. */
    public static boolean isResourceMethod(ClassShape type, MethodShape method, JaxrsNamespace ns,
            ClassShapes shapes) {
        if (!method.isMethod() || !method.isPublic() || method.isStatic() || method.isAbstract()
                || method.isBridge() || method.isSynthetic()) {
            return false;
        }
        try {
            MethodShape annotated = JaxrsAnnotatedMethod.find(type, method, ns, shapes);
            return annotated != null && hasHttpMethod(annotated, ns, shapes)
                    && JaxrsAnnotatedMethod.hasPath(type, ns, shapes, new HashSet<>());
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    /**
     * The namespace of the resource class {@code type} ({@code @Path} on it, a superclass or an interface), or
     * null when it is not a resource class of either API. Jakarta is asked first.
     */
    public static JaxrsNamespace namespaceOf(ClassShape type, ClassShapes shapes) {
        if (type == null) {
            return null;
        }
        try {
            if (JaxrsAnnotatedMethod.hasPath(type, JaxrsNamespace.JAKARTA, shapes, new HashSet<>())) {
                return JaxrsNamespace.JAKARTA;
            }
            if (JaxrsAnnotatedMethod.hasPath(type, JaxrsNamespace.JAVAX, shapes, new HashSet<>())) {
                return JaxrsNamespace.JAVAX;
            }
        } catch (RuntimeException unreadable) {
            return null;
        }
        return null;
    }

    private static boolean hasHttpMethod(MethodShape method, JaxrsNamespace ns, ClassShapes shapes) {
        for (AnnotationShape annotation : method.annotations()) {
            if (JaxrsAnnotatedMethod.isHttpMethod(annotation, ns, shapes)) {
                return true;
            }
        }
        return false;
    }
}
