package dev.limiter.agent.servlet;

/**
 * The two generations of the servlet API. They are identical for our purposes except for the package name,
 * so one instrumentation and one set of accessors serve both, parameterised by this enum; no code in the agent
 * is compiled against either API.
 */
enum ServletNamespace {
    JAVAX("javax.servlet"),
    JAKARTA("jakarta.servlet");

    private final String pkg;

    ServletNamespace(String pkg) {
        this.pkg = pkg;
    }

    /** Fully qualified name of a type in this namespace, e.g. {@code type("Filter")}. */
    String type(String simpleName) {
        return pkg + "." + simpleName;
    }

    /** Class-file resource of a type in this namespace, for class-loader checks that load nothing. */
    String resource(String simpleName) {
        return pkg.replace('.', '/') + "/" + simpleName + ".class";
    }
}
