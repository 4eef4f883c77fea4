package dev.limiter.agent.weave;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.pool.TypePool;

/**
 * Byte Buddy type pools for the classes being woven: one description cache per class loader, so the super
 * types and annotation types shared by many woven classes are parsed once.
 *
 * <p>The class being transformed is described from the bytes the JVM handed over, never from the shared cache
 * (a retransformation must see those bytes), the way Byte Buddy's own agent does it (a discriminating cache).
 * Loaders are weak keys and each cache holds its descriptions through a soft reference, so neither undeployed
 * applications nor a large cache outlive their use.
 */
final class TypePools {

    private final Map<ClassLoader, TypePool.CacheProvider> byLoader = Collections.synchronizedMap(new WeakHashMap<>());
    private final TypePool.CacheProvider bootstrap = new TypePool.CacheProvider.Simple.UsingSoftReference();

    /** A pool for transforming {@code binaryName} in {@code loader}, reading its class files from {@code locator}. */
    TypePool forTransformation(ClassLoader loader, String binaryName, ClassFileLocator locator) {
        TypePool.CacheProvider shared = loader == null ? bootstrap
                : byLoader.computeIfAbsent(loader, k -> new TypePool.CacheProvider.Simple.UsingSoftReference());
        TypePool.CacheProvider cache = new TypePool.CacheProvider.Discriminating(ElementMatchers.is(binaryName),
                new TypePool.CacheProvider.Simple(), shared);
        return new TypePool.Default.WithLazyResolution(cache, locator, TypePool.Default.ReaderMode.FAST);
    }
}
