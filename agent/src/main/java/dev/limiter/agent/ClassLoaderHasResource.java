package dev.limiter.agent;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Class-loader pre-filter: true if the loader can see a class file (e.g. {@code jakarta/servlet/Servlet.class},
 * {@code jakarta/ws/rs/Path.class}). Evaluated before any type matcher, so loaders without the library (most of
 * them) never pay for a super-type walk.
 *
 * <p>Looks the class file up as a resource instead of loading the class (loading during transformation can
 * deadlock or run static initialisers). Answers are cached per loader, weakly, so redeployed applications do not
 * leak their loaders. The bootstrap loader never has the servlet or JAX-RS API.
 */
public final class ClassLoaderHasResource implements ElementMatcher<ClassLoader> {

    private final String resource;
    private final Map<ClassLoader, Boolean> cache = Collections.synchronizedMap(new WeakHashMap<>());

    public ClassLoaderHasResource(String resource) {
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

    @Override
    public String toString() {
        return "hasResource(" + resource + ")";
    }
}
