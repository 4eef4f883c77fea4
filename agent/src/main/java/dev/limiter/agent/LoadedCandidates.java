package dev.limiter.agent;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Which already loaded classes Byte Buddy examines for retransformation when the transformer is installed:
 * only those outside {@link IgnoredTypes}, and none at all (no scan) when there are none.
 *
 * <p>Why: with {@code RETRANSFORMATION}, installing the transformer otherwise walks every loaded class through
 * Byte Buddy's collector (type pool, matchers, loaded-type reflection). In premain only JDK and agent classes
 * are loaded, all of them ignored, so that walk is start-up time spent for nothing. A late attach still gets
 * every application class that is loaded, so servlets already in use are retransformed as before.
 */
enum LoadedCandidates implements AgentBuilder.RedefinitionStrategy.DiscoveryStrategy {

    INSTANCE;

    @Override
    public Iterable<Iterable<Class<?>>> resolve(Instrumentation instrumentation) {
        List<Class<?>> candidates = new ArrayList<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            if (!type.isArray() && !type.isPrimitive() && !IgnoredTypes.ignored(type.getName())) {
                candidates.add(type);
            }
        }
        if (candidates.isEmpty()) {
            return Collections.emptyList();
        }
        return Collections.singletonList(candidates);
    }
}
