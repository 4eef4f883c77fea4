package dev.limiter.agent.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.util.HashSet;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Which methods are JAX-RS resource methods, decided from type descriptions alone (Byte Buddy type pool, no
 * class loading), so the agent can weave them as their classes load.
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

    /** The resource methods of namespace {@code ns}. A description the pool cannot resolve does not match. */
    public static ElementMatcher.Junction<MethodDescription> matcher(JaxrsNamespace ns) {
        return isMethod()
                .and(isPublic())
                .and(not(isStatic()))
                .and(not(isAbstract()))
                .and(not(isBridge()))
                .and(not(isSynthetic()))
                .and(new ResourceMethod(ns));
    }

    /**
     * The namespace of the resource class {@code type} ({@code @Path} on it, a superclass or an interface), or
     * null when it is not a resource class of either API. Jakarta is asked first.
     */
    public static JaxrsNamespace namespaceOf(TypeDescription type) {
        if (type == null) {
            return null;
        }
        try {
            if (JaxrsAnnotatedMethod.hasPath(type, JaxrsNamespace.JAKARTA, new HashSet<>())) {
                return JaxrsNamespace.JAKARTA;
            }
            if (JaxrsAnnotatedMethod.hasPath(type, JaxrsNamespace.JAVAX, new HashSet<>())) {
                return JaxrsNamespace.JAVAX;
            }
        } catch (RuntimeException unresolvable) {
            return null;
        }
        return null;
    }

    /** The annotation part of {@link #matcher}: an HTTP-method annotation applies and the type has {@code @Path}. */
    private static final class ResourceMethod extends ElementMatcher.Junction.ForNonNullValues<MethodDescription> {

        private final JaxrsNamespace ns;

        ResourceMethod(JaxrsNamespace ns) {
            this.ns = ns;
        }

        @Override
        protected boolean doMatch(MethodDescription method) {
            try {
                MethodDescription annotated = JaxrsAnnotatedMethod.find(method, ns);
                if (annotated == null || !hasHttpMethod(annotated)) {
                    return false;
                }
                return JaxrsAnnotatedMethod.hasPath(method.getDeclaringType(), ns, new HashSet<>());
            } catch (RuntimeException unresolvable) {
                return false;
            }
        }

        private boolean hasHttpMethod(MethodDescription method) {
            for (AnnotationDescription annotation : method.getDeclaredAnnotations()) {
                if (JaxrsAnnotatedMethod.isHttpMethod(annotation, ns)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String toString() {
            return "jaxrsResourceMethod(" + ns.packageName() + ")";
        }
    }
}
