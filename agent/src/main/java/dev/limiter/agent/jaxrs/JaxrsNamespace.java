package dev.limiter.agent.jaxrs;

/**
 * The two generations of the JAX-RS API ({@code javax.ws.rs}: JAX-RS 2.x, Jersey 2, RESTEasy 3-5;
 * {@code jakarta.ws.rs}: Jakarta REST 3+, Jersey 3-4, RESTEasy 6-7). For the limiter they differ only in the
 * package name, so every matcher and every reflective accessor in this package is parameterised by this enum
 * and no agent code is compiled against either API: the agent's own class loader has neither.
 */
public enum JaxrsNamespace {
    JAVAX("javax.ws.rs"),
    JAKARTA("jakarta.ws.rs");

    private final String pkg;
    private final String prefix;

    JaxrsNamespace(String pkg) {
        this.pkg = pkg;
        this.prefix = pkg + ".";
    }

    /** The API's root package, e.g. {@code jakarta.ws.rs}. */
    public String packageName() {
        return pkg;
    }

    /**
     * Fully qualified name of a type of this namespace, relative to the root package: {@code type("GET")} is
     * {@code jakarta.ws.rs.GET}, {@code type("core.Response")} is {@code jakarta.ws.rs.core.Response}.
     */
    public String type(String simpleName) {
        return prefix + simpleName;
    }

    /**
     * Class-file resource of a type of this namespace ({@code resource("Path")} is
     * {@code jakarta/ws/rs/Path.class}), for class-loader checks that load nothing.
     */
    public String resource(String simpleName) {
        return type(simpleName).replace('.', '/') + ".class";
    }

    /** True if {@code typeName} belongs to this API (the root package or one below it, e.g. {@code core}). */
    boolean owns(String typeName) {
        return typeName.startsWith(prefix);
    }
}
