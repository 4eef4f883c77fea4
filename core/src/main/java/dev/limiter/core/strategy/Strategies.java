package dev.limiter.core.strategy;

import dev.limiter.core.RateLimitStrategy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Looks strategies up by the name rules use: the built-ins plus custom ones discovered with {@link ServiceLoader}
 * ({@code META-INF/services/dev.limiter.core.RateLimitStrategy}).
 *
 * <p>Why discovery is lazy (the first name that is not a built-in's, or the first {@link #names()} or
 * {@link #register(ClassLoader)}) and done once: the agent resolves names while compiling rules, never on the
 * request path; scanning the class path on every reload would be slow and could see a different set of providers.
 * Providers are looked up with this class's loader and, if different, the thread's context loader (e.g. a web
 * application's, when core is a library inside a container). A built-in name cannot be overridden; a
 * provider that fails to load is skipped. Under the agent neither loader sees the application's class path, so
 * strategies from other jars are added explicitly with {@link #register(ClassLoader)}.
 */
public final class Strategies {

    private static volatile Map<String, RateLimitStrategy> registry;

    private Strategies() {
    }

    /** The strategy called {@code name} (case-insensitive), or {@code null} if there is none. */
    public static RateLimitStrategy byName(String name) {
        if (name == null) {
            return null;
        }
        String key = name.trim().toLowerCase(java.util.Locale.ROOT);
        // A built-in name cannot be overridden, so it resolves without discovering providers: that scan (every
        // module's provides and META-INF/services of both loaders) would otherwise run in every agent start.
        for (Strategy builtIn : Strategy.values()) {
            if (builtIn.id().equals(key)) {
                return builtIn.get();
            }
        }
        return registry().get(key);
    }

    /**
     * True if {@code strategy} is one of the built-ins ({@link Strategy}), not a custom one: a store that keeps
     * state outside this JVM can only run algorithms it implements itself, and a custom strategy is Java code.
     */
    public static boolean isBuiltIn(RateLimitStrategy strategy) {
        // by name first, so that only that one built-in's class is loaded; a built-in class always has its NAME
        String name = strategy.name();
        for (Strategy builtIn : Strategy.values()) {
            if (builtIn.id().equals(name)) {
                // adaptive: one class, an instance per settings
                return builtIn.get().getClass() == strategy.getClass();
            }
        }
        return false;
    }

    /** Every known name, built-ins first, for "did you mean" messages. */
    public static List<String> names() {
        return List.copyOf(registry().keySet());
    }

    /**
     * Adds the strategies that {@code loader} provides ({@code META-INF/services/dev.limiter.core.RateLimitStrategy}
     * seen through it) to the names rules can use, and returns their names, in discovery order. This is how
     * strategies from jars outside the class path get in: the agent's {@code strategies=} argument loads each jar
     * in a child of core's loader, so the jar links against this very {@link RateLimitStrategy}, and registers
     * it before any rule is parsed.
     *
     * <p>Unlike the lazy discovery, nothing is skipped silently: a provider that cannot be loaded or created, or
     * that takes a name another class already has (a built-in, or a strategy of another jar), is an error, and
     * then nothing of {@code loader} is added. A provider already registered (the same class: seen again through
     * the parent loader, or the same loader registered twice) is not an error; its name is returned again.
     *
     * @throws IllegalArgumentException listing every problem, one per line
     */
    public static List<String> register(ClassLoader loader) {
        if (loader == null) {
            throw new IllegalArgumentException("loader must not be null");
        }
        synchronized (Strategies.class) {
            Map<String, RateLimitStrategy> map = new LinkedHashMap<>(registry());
            List<String> provided = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            try {
                for (var it = ServiceLoader.load(RateLimitStrategy.class, loader).iterator(); ; ) {
                    RateLimitStrategy s;
                    try {
                        if (!it.hasNext()) {
                            break;
                        }
                        s = it.next();
                    } catch (ServiceConfigurationError | LinkageError broken) {
                        problems.add(describe(broken));
                        if (problems.size() >= 64) {
                            break; // the iterator may keep failing on the same entry
                        }
                        continue;
                    }
                    String name = s.name() == null ? "" : s.name().trim().toLowerCase(java.util.Locale.ROOT);
                    RateLimitStrategy taken = map.get(name);
                    if (name.isEmpty()) {
                        problems.add(s.getClass().getName() + ": name() is empty");
                    } else if (taken == null || taken.getClass() == s.getClass()) {
                        map.putIfAbsent(name, s);
                        provided.add(name);
                    } else {
                        problems.add(s.getClass().getName() + ": strategy name '" + name + "' is already taken by "
                                + taken.getClass().getName() + describeLoader(taken.getClass()));
                    }
                }
            } catch (ServiceConfigurationError broken) {
                problems.add(describe(broken));
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(String.join("\n", problems));
            }
            registry = Collections.unmodifiableMap(map);
            return List.copyOf(provided);
        }
    }

    private static String describeLoader(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return type.getClassLoader() == Strategies.class.getClassLoader() ? ""
                : " of class loader " + (loader == null ? "bootstrap" : loader.getName() == null ? loader.toString()
                        : loader.getName());
    }

    private static String describe(Throwable broken) {
        String message = broken.getMessage() == null ? broken.toString() : broken.getMessage();
        Throwable cause = broken.getCause();
        return cause == null ? message : message + " (" + cause + ")";
    }

    private static Map<String, RateLimitStrategy> registry() {
        Map<String, RateLimitStrategy> r = registry;
        if (r == null) {
            synchronized (Strategies.class) {
                r = registry;
                if (r == null) {
                    r = load();
                    registry = r;
                }
            }
        }
        return r;
    }

    private static Map<String, RateLimitStrategy> load() {
        Map<String, RateLimitStrategy> map = new LinkedHashMap<>();
        for (Strategy s : Strategy.values()) {
            map.put(s.id(), s.get());
        }
        List<ClassLoader> loaders = new ArrayList<>();
        loaders.add(Strategies.class.getClassLoader());
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null && context != loaders.get(0)) {
            loaders.add(context);
        }
        for (ClassLoader loader : loaders) {
            try {
                ServiceLoader<RateLimitStrategy> services = ServiceLoader.load(RateLimitStrategy.class, loader);
                int errors = 0;
                for (var it = services.iterator(); errors < 64; ) {
                    RateLimitStrategy s;
                    try {
                        if (!it.hasNext()) {
                            break;
                        }
                        s = it.next();
                    } catch (ServiceConfigurationError broken) {
                        errors++; // a broken provider must not hide the others
                        continue;
                    }
                    String name = s.name();
                    if (name != null) {
                        map.putIfAbsent(name.trim().toLowerCase(java.util.Locale.ROOT), s);
                    }
                }
            } catch (ServiceConfigurationError broken) {
                // unreadable services file: keep what we have
            }
        }
        return Collections.unmodifiableMap(map);
    }
}
