package dev.limiter.agent.jaxrs;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * A class loader like a javax web application's: a real JAX-RS 2 runtime (Jersey 2 jars, copied by the build into
 * the folder named by the system property {@code jaxrs.javax.runtime}: Jersey 2 cannot share the test class path
 * with Jersey 3) plus the test fixtures, child-first. Only {@code dev.limiter.} is taken from the test class path,
 * standing for the boot loader the agent puts the bridge in.
 */
final class JavaxRuntime extends URLClassLoader {

    static final String PROPERTY = "jaxrs.javax.runtime";

    private final ClassLoader agentSide;

    private JavaxRuntime(URL[] path, ClassLoader agentSide) {
        super("javax-webapp", path, ClassLoader.getPlatformClassLoader());
        this.agentSide = agentSide;
    }

    /** The loader, or null when the build did not provide the Jersey 2 jars. */
    static JavaxRuntime createOrNull(ClassLoader agentSide) throws MalformedURLException {
        String folder = System.getProperty(PROPERTY);
        File[] jars = folder == null ? null : new File(folder).listFiles((dir, name) -> name.endsWith(".jar"));
        if (jars == null || jars.length == 0) {
            return null;
        }
        List<URL> path = new ArrayList<>();
        for (File jar : jars) {
            path.add(jar.toURI().toURL());
        }
        path.add(JavaxRuntime.class.getProtectionDomain().getCodeSource().getLocation());
        return new JavaxRuntime(path.toArray(new URL[0]), agentSide);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith("dev.limiter.")) {
            return agentSide.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }
}
