package dev.limiter.agent.weave;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which of the woven APIs (servlet javax / jakarta, JAX-RS mapper javax / jakarta) a class loader can see, as
 * {@link WeaveTarget} bits: the first question asked about every class, before any class file is read. Each
 * target names the class file that tells ({@link WeaveTarget#apiResource}).
 *
 * <p>Most loaders see none of them (the JDK's, most library loaders), so most classes are rejected here with
 * one cached map lookup. The answer is found by looking the API's class file up as a resource, never by loading
 * a class (loading during a transformation can deadlock or run static initialisers), and cached per loader
 * weakly, so undeployed web applications do not stay reachable. The bootstrap loader sees none.
 *
 * <p>Classes mostly load in runs from one loader, so the last answer is kept in front of the map: the common
 * case takes no lock and calls none of the loader's own methods ({@link #known} runs no foreign code, so the
 * transformer may ask it before its re-entrance guard).
 */
final class ApiVisibility {

    /** {@link #known}'s answer when this loader was not asked yet. */
    static final int UNKNOWN = -1;

    private final Map<ClassLoader, Integer> byLoader = Collections.synchronizedMap(new WeakHashMap<>());
    private volatile LastAnswer last;

    /** The loader answered last (weakly: an undeployed web application's loader must not stay reachable). */
    private static final class LastAnswer extends WeakReference<ClassLoader> {

        final int bits;

        LastAnswer(ClassLoader loader, int bits) {
            super(loader);
            this.bits = bits;
        }
    }

    /** The bits of {@code loader} if it was the last one asked or the bootstrap loader, else {@link #UNKNOWN}. */
    int known(ClassLoader loader) {
        if (loader == null) {
            return 0;
        }
        LastAnswer answer = last;
        return answer != null && answer.get() == loader ? answer.bits : UNKNOWN;
    }

    /** The {@link WeaveTarget} bits of the APIs {@code loader} can see; 0 for the bootstrap loader. */
    int of(ClassLoader loader) {
        int fast = known(loader);
        if (fast != UNKNOWN) {
            return fast;
        }
        Integer known = byLoader.get(loader);
        if (known != null) {
            last = new LastAnswer(loader, known);
            return known;
        }
        int bits = 0;
        for (WeaveTarget target : WeaveTarget.ALL) {
            if (target.apiResource == null) {
                continue; // found by class name alone (WeaveTarget.EXACT_CLASSES)
            }
            try {
                if (loader.getResource(target.apiResource) != null) {
                    bits |= target.bit;
                }
            } catch (Throwable t) {
                // a loader that fails to answer is treated as not seeing the API
            }
        }
        byLoader.put(loader, bits);
        last = new LastAnswer(loader, bits);
        return bits;
    }
}
