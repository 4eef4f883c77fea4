package dev.limiter.agent.servlet;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Class-loader pre-filter: true if the loader can see a given class file. Evaluated before any type matcher so
 * that class loaders without the servlet API (most of them) never pay for a super-type walk.
 *
 * <p>It looks up the class file as a resource instead of loading the class: loading application classes
 * during transformation can deadlock or run static initialisers. Answers are cached per loader (weakly, so
 * web-app redeploys do not leak loaders). The bootstrap loader never has the servlet API.
 */
final class ClassLoaderHasType implements ElementMatcher<ClassLoader> {

    private final String resource;
    private final Map<ClassLoader, Boolean> cache = Collections.synchronizedMap(new WeakHashMap<>());

    ClassLoaderHasType(String resource) {
        this.resource = resource;
    }

    @Override
    public boolean matches(ClassLoader loader) {
        if (loader == null) {
            return false;
        }
        Boolean known = cache.get(loader);
        if (known != null) {
            return known;
        }
        boolean found;
        try {
            found = loader.getResource(resource) != null;
        } catch (Throwable t) {
            found = false;
        }
        cache.put(loader, found);
        return found;
    }
}
