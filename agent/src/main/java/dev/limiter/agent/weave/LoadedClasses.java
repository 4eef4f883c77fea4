package dev.limiter.agent.weave;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * The already loaded classes {@link LimiterTransformer} weaves, and their retransformation in batches.
 *
 * <p>Used after a late attach (the application's servlets are loaded already), and when the transformer is
 * reset; premain skips it, since only the JDK's classes and ours are loaded then. Loaded classes are judged by
 * reflection on their names and super types, which loads nothing; JDK and agent classes are rejected by name
 * first. Retransformation runs {@value #BATCH} classes at a time (it stops the JVM at a
 * safepoint); a failed batch is retried one class at a time so one bad class does not keep the others unwoven.
 */
final class LoadedClasses {

    static final int BATCH = 100;

    private LoadedClasses() {
    }

    /** The loaded, modifiable classes {@code transformer} weaves. */
    static List<Class<?>> select(Instrumentation inst, LimiterTransformer transformer) {
        List<Class<?>> selected = new ArrayList<>();
        for (Class<?> type : inst.getAllLoadedClasses()) {
            if (type.isArray() || type.isPrimitive() || type.isHidden() || IgnoredTypes.ignored(type.getName())
                    && (WeaveTarget.exactBitsOfBinaryName(type.getName()) == 0 || !JdkModuleReads.ensure())) {
                continue;
            }
            try {
                if (inst.isModifiableClass(type) && transformer.weaves(type)) {
                    selected.add(type);
                }
            } catch (Throwable t) {
                // a class whose super types cannot be reflected on is not one we weave
            }
        }
        return selected;
    }

    /** The {@link WeaveTarget} bits {@code type} implements, from its loaded super types. */
    static int targetsOf(Class<?> type) {
        int bits = 0;
        for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
            bits |= WeaveTarget.bitOfBinaryName(current.getName()) | interfaceTargets(current.getInterfaces());
        }
        return bits;
    }

    private static int interfaceTargets(Class<?>[] interfaces) {
        int bits = 0;
        for (Class<?> type : interfaces) {
            bits |= WeaveTarget.bitOfBinaryName(type.getName()) | interfaceTargets(type.getInterfaces());
        }
        return bits;
    }

    /**
     * Retransforms {@code classes}, {@value #BATCH} at a time; failures are logged, never thrown. Returns how
     * many were retransformed.
     */
    static int retransform(Instrumentation inst, List<Class<?>> classes, ThrottledLog log) {
        int done = 0;
        for (int from = 0; from < classes.size(); from += BATCH) {
            List<Class<?>> batch = classes.subList(from, Math.min(classes.size(), from + BATCH));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
                done += batch.size();
            } catch (Throwable batchFailed) {
                for (Class<?> type : batch) {
                    try {
                        inst.retransformClasses(type);
                        done++;
                    } catch (Throwable t) {
                        log.warn(Warning.WEAVING, "limiter: cannot retransform " + type.getName(), t);
                    }
                }
            }
        }
        return done;
    }
}
