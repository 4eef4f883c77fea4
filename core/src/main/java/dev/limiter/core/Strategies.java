package dev.limiter.core;

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
 * <p>Why discovery is lazy and done once: the agent resolves names while compiling rules, never on the request
 * path; scanning the class path on every reload would be slow and could see a different set of providers.
 * Providers are looked up with this class's loader and, if different, the thread's context loader (the
 * application's, when the agent runs in its own isolated loader). A built-in name cannot be overridden; a
 * provider that fails to load is skipped.
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
        return registry().get(name.trim().toLowerCase(java.util.Locale.ROOT));
    }

    /** Every known name, built-ins first, for "did you mean" messages. */
    public static List<String> names() {
        return List.copyOf(registry().keySet());
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
