package dev.limiter.agent.weave;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which of the woven APIs (servlet javax / jakarta, JAX-RS mapper javax / jakarta) a class loader can see, as
 * {@link WeaveTarget} bits: the first question asked about every class, before any class file is read.
 *
 * <p>Most loaders see none of them (the JDK's, most library loaders), so most classes are rejected here with
 * one cached map lookup. The answer is found by looking the API's class file up as a resource, never by loading
 * a class (loading during a transformation can deadlock or run static initialisers), and cached per loader
 * weakly, so undeployed web applications do not stay reachable. The bootstrap loader sees none.
 */
final class ApiVisibility {

    private final Map<ClassLoader, Integer> byLoader = Collections.synchronizedMap(new WeakHashMap<>());

    /** The {@link WeaveTarget} bits of the APIs {@code loader} can see; 0 for the bootstrap loader. */
    int of(ClassLoader loader) {
        if (loader == null) {
            return 0;
        }
        Integer known = byLoader.get(loader);
        if (known != null) {
            return known;
        }
        int bits = 0;
        for (int i = 0; i < WeaveTarget.VISIBILITY_RESOURCES.length; i++) {
            try {
                if (loader.getResource(WeaveTarget.VISIBILITY_RESOURCES[i]) != null) {
                    bits |= WeaveTarget.VISIBILITY_BITS[i];
                }
            } catch (Throwable t) {
                // a loader that fails to answer is treated as not seeing the API
            }
        }
        byLoader.put(loader, bits);
        return bits;
    }
}
