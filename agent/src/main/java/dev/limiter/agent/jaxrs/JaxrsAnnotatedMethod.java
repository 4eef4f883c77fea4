package dev.limiter.agent.jaxrs;

import dev.limiter.agent.classfile.AnnotationShape;
import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * JAX-RS annotation inheritance (spec 3.6): the JAX-RS annotations of a method are those of the first method
 * in its hierarchy (the method itself, then the methods it overrides in superclasses, then those it implements
 * in interfaces) that carries any JAX-RS annotation on itself or on a parameter. A method with annotations of
 * its own ignores those of its super methods.
 *
 * <p>Works on class files ({@link ClassShapes}) and loads nothing. A method overrides a super method with its
 * name and parameter types, or one its class bridges to it: javac writes a bridge {@code save(Object)} for
 * {@code save(String)} implementing {@code save(T)} of {@code Api<String>}, so the generic shape is found
 * without reading generic signatures. Return types do not count ({@code String get()} implements
 * {@code T get()}). A super type that cannot be read counts as absent, and an annotation whose class is missing
 * is dropped (as the JVM ignores it), so an optional library's annotation does not hide a resource method.
 */
final class JaxrsAnnotatedMethod {

    private static final String[] HTTP_METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"};

    private JaxrsAnnotatedMethod() {
    }

    /**
     * The method whose JAX-RS annotations apply to {@code method} of {@code type}, or null if no method in its
     * hierarchy has any.
     */
    static MethodShape find(ClassShape type, MethodShape method, JaxrsNamespace ns, ClassShapes shapes) {
        if (hasAnnotations(method, ns, shapes)) {
            return method;
        }
        Set<String> signatures = new HashSet<>();
        signatures.add(method.name() + method.parameterDescriptor());
        int parameters = method.parameterCount();
        for (MethodShape bridge : type.methods()) {
            if (bridge.isBridge() && bridge.name().equals(method.name()) && bridge.parameterCount() == parameters) {
                signatures.add(bridge.name() + bridge.parameterDescriptor());
            }
        }
        Set<String> seen = new HashSet<>();
        seen.add(type.name());
        return searchSupertypes(type, signatures, ns, shapes, seen);
    }

    /** True if {@code annotation} is {@code @GET}, {@code @POST} ... or any annotation meta-annotated {@code @HttpMethod}. */
    static boolean isHttpMethod(AnnotationShape annotation, JaxrsNamespace ns, ClassShapes shapes) {
        String name = annotation.type();
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
        ClassShape type = shapes.find(name);
        return type != null && annotationNamed(type.annotations(), ns.type("HttpMethod")) != null;
    }

    /** The first annotation in {@code annotations} whose type is {@code typeName}, or null. */
    static AnnotationShape annotationNamed(List<AnnotationShape> annotations, String typeName) {
        for (AnnotationShape annotation : annotations) {
            if (annotation.type().equals(typeName)) {
                return annotation;
            }
        }
        return null;
    }

    /** True if {@code type}, one of its superclasses or one of its interfaces is annotated {@code @Path}. */
    static boolean hasPath(ClassShape type, JaxrsNamespace ns, ClassShapes shapes, Set<String> seen) {
        if (type == null || type.name().startsWith("java.") || !seen.add(type.name())) {
            return false;
        }
        if (annotationNamed(type.annotations(), ns.type("Path")) != null) {
            return true;
        }
        if (hasPath(superType(type.superName(), shapes), ns, shapes, seen)) {
            return true;
        }
        for (String itf : type.interfaces()) {
            if (hasPath(superType(itf, shapes), ns, shapes, seen)) {
                return true;
            }
        }
        return false;
    }

    /** Depth first, superclass before interfaces, each type once ({@code seen}). */
    private static MethodShape searchSupertypes(ClassShape type, Set<String> signatures, JaxrsNamespace ns,
            ClassShapes shapes, Set<String> seen) {
        MethodShape found = searchSupertype(type.superName(), signatures, ns, shapes, seen);
        for (int i = 0; found == null && i < type.interfaces().size(); i++) {
            found = searchSupertype(type.interfaces().get(i), signatures, ns, shapes, seen);
        }
        return found;
    }

    private static MethodShape searchSupertype(String name, Set<String> signatures, JaxrsNamespace ns,
            ClassShapes shapes, Set<String> seen) {
        ClassShape superType = superType(name, shapes);
        if (superType == null || !seen.add(superType.name())) {
            return null;
        }
        MethodShape found = declaredIn(superType, signatures, ns, shapes);
        return found != null ? found : searchSupertypes(superType, signatures, ns, shapes, seen);
    }

    /** The annotated method of {@code type} that a method with one of {@code signatures} overrides, or null. */
    private static MethodShape declaredIn(ClassShape type, Set<String> signatures, JaxrsNamespace ns,
            ClassShapes shapes) {
        for (MethodShape candidate : type.methods()) {
            if (candidate.isPrivate() || candidate.isStatic() || candidate.isBridge() || !candidate.isMethod()) {
                continue;
            }
            if (signatures.contains(candidate.name() + candidate.parameterDescriptor())
                    && hasAnnotations(candidate, ns, shapes)) {
                return candidate;
            }
        }
        return null;
    }

    /** Any JAX-RS annotation on the method or a parameter; a custom {@code @HttpMethod} annotation counts too. */
    private static boolean hasAnnotations(MethodShape method, JaxrsNamespace ns, ClassShapes shapes) {
        for (AnnotationShape annotation : method.annotations()) {
            if (ns.owns(annotation.type()) || isHttpMethod(annotation, ns, shapes)) {
                return true;
            }
        }
        for (List<AnnotationShape> parameter : method.parameterAnnotations()) {
            for (AnnotationShape annotation : parameter) {
                if (ns.owns(annotation.type())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static ClassShape superType(String name, ClassShapes shapes) {
        return name == null || name.startsWith("java.") ? null : shapes.find(name);
    }
}
