package dev.limiter.agent;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.pool.TypePool;

/**
 * The type-pool cache used while matching: one cache per class loader, so super types shared by many classes
 * (HttpServlet, framework base classes) are parsed once.
 *
 * <p>Why not Byte Buddy's {@code WithTypePoolCache.Simple}: it keys a plain concurrent map by class loader, so
 * every web-app loader would stay reachable after an undeploy. Here loaders are weak keys, and each cache holds
 * its parsed types through a soft reference, so the memory goes back to the heap when it is needed (the cache
 * matters at start-up, when most classes load).
 */
final class WeakTypePoolCache extends AgentBuilder.PoolStrategy.WithTypePoolCache {

    private final Map<ClassLoader, TypePool.CacheProvider> byLoader = Collections.synchronizedMap(new WeakHashMap<>());
    private final TypePool.CacheProvider bootstrap = new TypePool.CacheProvider.Simple.UsingSoftReference();

    WeakTypePoolCache() {
        super(TypePool.Default.ReaderMode.FAST);
    }

    @Override
    protected TypePool.CacheProvider locate(ClassLoader classLoader) {
        if (classLoader == null) {
            return bootstrap;
        }
        return byLoader.computeIfAbsent(classLoader, loader -> new TypePool.CacheProvider.Simple.UsingSoftReference());
    }
}
