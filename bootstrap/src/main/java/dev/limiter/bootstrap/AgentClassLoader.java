package dev.limiter.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The isolated loader for everything the agent needs beyond the bootstrap bridge: our agent code, core, rules,
 * and the relocated Byte Buddy and the Redis client.
 *
 * <p>Those classes sit in the agent jar under {@value #PREFIX} with a {@value #SUFFIX} suffix, so no ordinary
 * class loader (and no class-path scanner: Spring, ClassGraph, Jandex) ever sees them, and the application's
 * own Byte Buddy or Jedis cannot clash with ours. Resources are served from the same prefix, and a request
 * for {@code some/Type.class} is answered with its {@code .classdata} bytes, because Byte Buddy locates advice
 * classes through {@code getResource}.
 *
 * <p>The parent is the platform loader: the JDK and the bridge in the boot loader are visible, the application
 * class path is not. This class is in the boot loader itself so premain and the CLI can create it without
 * holding any state in the premain class.
 */
public final class AgentClassLoader extends ClassLoader {

    /** Folder inside the agent jar that holds the isolated classes and resources. */
    public static final String PREFIX = "inst/";

    /** File suffix of isolated class files. */
    public static final String SUFFIX = ".classdata";

    /** The package prefix of the agent's own classes (relocated libraries included). */
    private static final String OWN = "dev.limiter.";

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final JarFile jar;
    private final URL jarUrl;
    private final ProtectionDomain domain;

    public AgentClassLoader(JarFile jar, URL jarUrl) {
        super("limiter-agent", ClassLoader.getPlatformClassLoader());
        this.jar = jar;
        this.jarUrl = jarUrl;
        this.domain = new ProtectionDomain(new CodeSource(jarUrl, (Certificate[]) null), null, this, null);
    }

    /**
     * The agent's own classes ({@value #OWN}...) are looked up in the jar first: neither the platform loader nor the
     * boot loader has them (the bridge classes, which the boot loader does have, are not under {@value #PREFIX}),
     * and asking them first costs a look-up in the runtime image for each of the hundreds of classes a start
     * loads. Every other name goes to the parent first, as usual.
     */
    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(OWN)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                JarEntry entry = classEntry(name);
                loaded = entry == null ? super.loadClass(name, false) : define(name, entry);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        JarEntry entry = classEntry(name);
        if (entry == null) {
            throw new ClassNotFoundException(name);
        }
        return define(name, entry);
    }

    /** The jar's entry for class {@code name} under {@value #PREFIX}, or null. */
    private JarEntry classEntry(String name) {
        return jar.getJarEntry(PREFIX + name.replace('.', '/') + SUFFIX);
    }

    private Class<?> define(String name, JarEntry entry) throws ClassNotFoundException {
        byte[] bytes;
        try (InputStream in = jar.getInputStream(entry)) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        definePackageOf(name);
        return defineClass(name, bytes, 0, bytes.length, domain);
    }

    private void definePackageOf(String className) {
        int dot = className.lastIndexOf('.');
        if (dot <= 0) {
            return;
        }
        String pkg = className.substring(0, dot);
        if (getDefinedPackage(pkg) == null) {
            try {
                definePackage(pkg, null, null, null, null, null, null, null);
            } catch (IllegalArgumentException raced) {
                // another thread defined it first: fine
            }
        }
    }

    @Override
    protected URL findResource(String name) {
        String entryName = entryNameOf(name);
        if (jar.getJarEntry(entryName) == null) {
            return null;
        }
        try {
            return new URL("jar:" + jarUrl.toExternalForm() + "!/" + entryName);
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL url = findResource(name);
        return url == null ? Collections.emptyEnumeration() : Collections.enumeration(Collections.singletonList(url));
    }

    @Override
    public InputStream getResourceAsStream(String name) {
        JarEntry entry = jar.getJarEntry(entryNameOf(name));
        if (entry == null) {
            return super.getResourceAsStream(name);
        }
        try {
            return new java.io.ByteArrayInputStream(read(jar.getInputStream(entry)));
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] read(InputStream in) throws IOException {
        try (in; ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    private static String entryNameOf(String resource) {
        String name = resource.startsWith("/") ? resource.substring(1) : resource;
        if (name.endsWith(".class")) {
            return PREFIX + name.substring(0, name.length() - ".class".length()) + SUFFIX;
        }
        return PREFIX + name;
    }
}
