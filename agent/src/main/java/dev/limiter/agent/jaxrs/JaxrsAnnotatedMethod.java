package dev.limiter.agent.jaxrs;

import java.util.HashSet;
import java.util.Set;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.annotation.AnnotationList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;

/**
 * JAX-RS annotation inheritance (spec 3.6): the JAX-RS annotations of a method are those of the first method
 * in its hierarchy (the method itself, then the methods it overrides in superclasses, then those it implements
 * in interfaces) that carries any JAX-RS annotation on itself or on a parameter. A method with annotations of
 * its own ignores those of its super methods.
 *
 * <p>Works on descriptions from a type pool and loads nothing. Super types are walked in their generic shape
 * ({@code implements Resource<String>}), so {@code String get()} is found to implement {@code T get()}. A super
 * type the pool cannot resolve counts as absent; an annotation whose class is missing is dropped by the type pool
 * (as the JVM ignores it), so an optional library's annotation does not hide a resource method.
 */
final class JaxrsAnnotatedMethod {

    private static final String[] HTTP_METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"};

    private JaxrsAnnotatedMethod() {
    }

    /** The method whose JAX-RS annotations apply to {@code method}, or null if no method in its hierarchy has any. */
    static MethodDescription find(MethodDescription method, JaxrsNamespace ns) {
        if (hasAnnotations(method, ns)) {
            return method;
        }
        TypeDefinition declaring = method.getDeclaringType();
        if (declaring == null) {
            return null;
        }
        return searchSupertypes(declaring, method.asSignatureToken(), ns, new HashSet<>());
    }

    /** True if {@code annotation} is {@code @GET}, {@code @POST} ... or any annotation meta-annotated {@code @HttpMethod}. */
    static boolean isHttpMethod(AnnotationDescription annotation, JaxrsNamespace ns) {
        TypeDescription type = annotation.getAnnotationType();
        String name = type.getName();
        if (ns.owns(name)) {
            for (String http : HTTP_METHODS) {
                if (name.length() == ns.packageName().length() + 1 + http.length() && name.endsWith(http)) {
                    return true;
                }
            }
        }
        if (name.startsWith("java.")) {
            return false;
        }
        return annotationNamed(type.getDeclaredAnnotations(), ns.type("HttpMethod")) != null;
    }

    /** The first annotation in {@code annotations} whose type is {@code typeName}, or null. */
    static AnnotationDescription annotationNamed(AnnotationList annotations, String typeName) {
        for (AnnotationDescription annotation : annotations) {
            if (annotation.getAnnotationType().getName().equals(typeName)) {
                return annotation;
            }
        }
        return null;
    }

    /** True if {@code type}, one of its superclasses or one of its interfaces is annotated {@code @Path}. */
    static boolean hasPath(TypeDefinition type, JaxrsNamespace ns, Set<String> seen) {
        if (type == null || type.getTypeName().startsWith("java.") || !seen.add(type.asErasure().getName())) {
            return false;
        }
        if (annotationNamed(type.asErasure().getDeclaredAnnotations(), ns.type("Path")) != null) {
            return true;
        }
        if (hasPath(superClass(type), ns, seen)) {
            return true;
        }
        for (TypeDefinition itf : interfaces(type)) {
            if (hasPath(itf, ns, seen)) {
                return true;
            }
        }
        return false;
    }

    private static MethodDescription searchSupertypes(TypeDefinition type, MethodDescription.SignatureToken token,
            JaxrsNamespace ns, Set<String> seen) {
        TypeDefinition superClass = superClass(type);
        if (superClass != null) {
            MethodDescription found = declaredIn(superClass, token, ns, seen);
            if (found == null) {
                found = searchSupertypes(superClass, token, ns, seen);
            }
            if (found != null) {
                return found;
            }
        }
        for (TypeDefinition itf : interfaces(type)) {
            MethodDescription found = declaredIn(itf, token, ns, seen);
            if (found == null) {
                found = searchSupertypes(itf, token, ns, seen);
            }
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The annotated method of {@code type} that a method with {@code token} overrides or implements, or null. */
    private static MethodDescription declaredIn(TypeDefinition type, MethodDescription.SignatureToken token,
            JaxrsNamespace ns, Set<String> seen) {
        if (type.getTypeName().startsWith("java.") || !seen.add(type.asErasure().getName())) {
            return null;
        }
        for (MethodDescription candidate : type.getDeclaredMethods()) {
            if (candidate.isPrivate() || candidate.isStatic() || candidate.isBridge() || !candidate.isMethod()) {
                continue;
            }
            if (candidate.asSignatureToken().equals(token) && hasAnnotations(candidate, ns)) {
                return candidate;
            }
        }
        return null;
    }

    /** Any JAX-RS annotation on the method or a parameter; a custom {@code @HttpMethod} annotation counts too. */
    private static boolean hasAnnotations(MethodDescription method, JaxrsNamespace ns) {
        for (AnnotationDescription annotation : method.getDeclaredAnnotations()) {
            if (ns.owns(annotation.getAnnotationType().getName()) || isHttpMethod(annotation, ns)) {
                return true;
            }
        }
        for (ParameterDescription parameter : method.getParameters()) {
            for (AnnotationDescription annotation : parameter.getDeclaredAnnotations()) {
                if (ns.owns(annotation.getAnnotationType().getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static TypeDefinition superClass(TypeDefinition type) {
        try {
            return type.getSuperClass();
        } catch (RuntimeException unresolvable) {
            return null;
        }
    }

    private static Iterable<? extends TypeDefinition> interfaces(TypeDefinition type) {
        try {
            return type.getInterfaces();
        } catch (RuntimeException unresolvable) {
            return java.util.List.of();
        }
    }
}
