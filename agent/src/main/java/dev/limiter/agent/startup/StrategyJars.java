package dev.limiter.agent.startup;

import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.strategy.Strategies;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;

/**
 * Custom strategies from jars named by {@code strategies=/path/a.jar:/path/b.jar} (the agent argument and the
 * CLI's {@code validate --strategies=}), made known to {@link Strategies} before any rule is parsed.
 *
 * <p>Why a loader of our own: core runs in the agent's isolated loader, which cannot see the application's class
 * path, and a strategy on the application's class path could not see core's {@link RateLimitStrategy} either
 * (the agent's classes are hidden in the jar). So the jars are loaded by a child of the loader that defined this
 * class: parent first, the user's class links against the agent's very core, and only the JDK, core's API and
 * the other listed jars are visible to it (like a class path: a strategy may bring a library jar of its own).
 * The loader lives as long as the JVM; the same list of jars always gets the same loader, so loading it again
 * (a second {@code validate} in one JVM, tests) finds the strategies already registered instead of a clash.
 */
public final class StrategyJars {

    static final String SERVICES = "META-INF/services/" + RateLimitStrategy.class.getName();

    private static final Map<List<Path>, ClassLoader> LOADERS = new ConcurrentHashMap<>();

    private StrategyJars() {
    }

    /** Splits {@code a.jar:b.jar} ({@link File#pathSeparator}); blank entries are ignored. */
    public static List<Path> parse(String spec) {
        List<Path> jars = new ArrayList<>();
        if (spec != null) {
            for (String part : spec.split(File.pathSeparator)) {
                if (!part.isBlank()) {
                    jars.add(Path.of(part.trim()));
                }
            }
        }
        return List.copyOf(jars);
    }

    /**
     * Loads the strategies of {@code jars} and registers them; returns their names. Nothing is registered if any
     * jar is unusable.
     *
     * @throws IllegalArgumentException naming the jar and what is wrong with it: missing, not a jar, no
     *         services entry in any of the jars, a provider class that cannot be loaded, or a name already taken
     */
    public static List<String> load(List<Path> jars) {
        if (jars.isEmpty()) {
            return List.of();
        }
        List<Path> absolute = jars.stream().map(jar -> jar.toAbsolutePath().normalize()).toList();
        URL[] urls = new URL[absolute.size()];
        boolean declares = false;
        for (int i = 0; i < urls.length; i++) {
            urls[i] = url(absolute.get(i));
            declares |= declaresStrategies(absolute.get(i));
        }
        if (!declares) {
            String which = absolute.size() == 1 ? absolute.get(0) + " declares no strategy"
                    : "none of " + absolute + " declares a strategy";
            throw new IllegalArgumentException("strategies: " + which + " (" + SERVICES
                    + " must list the implementation classes)");
        }
        ClassLoader loader = LOADERS.computeIfAbsent(absolute,
                key -> new URLClassLoader("limiter-strategies", urls, StrategyJars.class.getClassLoader()));
        try {
            return Strategies.register(loader);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("strategies " + absolute + ": " + e.getMessage(), e);
        }
    }

    /** True if {@code jar} lists providers; throws if it is missing or not a jar. */
    private static boolean declaresStrategies(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("strategies: " + jar + (Files.exists(jar) ? " is not a file"
                    : " does not exist"));
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getEntry(SERVICES) != null;
        } catch (IOException e) {
            throw new IllegalArgumentException("strategies: " + jar + " is not a readable jar (" + e.getMessage()
                    + ")", e);
        }
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("strategies: " + jar + ": " + e.getMessage(), e);
        }
    }
}
