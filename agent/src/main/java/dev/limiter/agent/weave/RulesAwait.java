package dev.limiter.agent.weave;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The classes the transformer passed over while the rules were still being parsed, so that those the rules turn
 * out to name are woven once they are known.
 *
 * <p>Why: parsing the rules costs a cold JVM about a tenth of a second (YAML, validation, some 200 classes).
 * Done in premain, that is start-up time of every application whose rules name classes. Instead the parse runs on
 * the agent's own thread while the application starts, the transformer weaves what needs no rules (servlets,
 * mappers, {@code @Limit}) and remembers the name of every other class it sees, and when the rules are in, the
 * remembered classes they name are retransformed. Usually there are none: the classes rules name (resource and
 * service classes) load long after a parse of milliseconds' worth of work is done.
 *
 * <p>No class is missed: a transformation that read "no rules yet" registers itself ({@link #pending}) before
 * it looks again and records the name; the rules are published first and the names are read only once no such
 * transformation is in flight, so every one either sees the rules or is recorded before they are read.
 */
final class RulesAwait {

    /** How long a remembered class may take to appear among the loaded ones (its definition completing). */
    private static final long DEFINITION_WAIT_MILLIS = 2_000;

    private final LimiterTransformer transformer;
    private final Set<String> passedOver = ConcurrentHashMap.newKeySet();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean awaiting = true;

    /** @param transformer whose rules ({@link LimiterTransformer#namingRules}) are null until they are known */
    RulesAwait(LimiterTransformer transformer) {
        this.transformer = transformer;
    }

    /** False once the rules are known and the remembered names are read. */
    boolean awaiting() {
        return awaiting;
    }

    /**
     * For a transformation that found no rules: the rules if they have just been published, else null after
     * remembering {@code internalName} for later.
     */
    RuleSetHolder rulesOrRemember(String internalName) {
        pending.incrementAndGet();
        try {
            RuleSetHolder holder = transformer.namingRules();
            if (holder == null) {
                passedOver.add(internalName);
            }
            return holder;
        } finally {
            pending.decrementAndGet();
        }
    }

    /**
     * Called once the rules are published: the binary names of the remembered classes that {@code rules} name,
     * after every transformation that might still record one has finished.
     */
    Set<String> namedBy(RuleSet rules) {
        while (pending.get() != 0) {
            Thread.onSpinWait();
        }
        awaiting = false;
        Set<String> named = new HashSet<>();
        for (String internalName : passedOver) {
            String binaryName = internalName.replace('/', '.');
            if (rules.namesMethodClass(binaryName) || rules.namesJaxrsClass(binaryName)) {
                named.add(binaryName);
            }
        }
        passedOver.clear();
        return named;
    }

    /**
     * The loaded classes called {@code names}, waiting (briefly) for those whose definition has not completed
     * yet: a class is remembered while the JVM is still defining it.
     */
    static List<Class<?>> loaded(Instrumentation inst, Set<String> names) throws InterruptedException {
        List<Class<?>> found = new ArrayList<>();
        Set<String> missing = new HashSet<>(names);
        long deadline = System.nanoTime() + DEFINITION_WAIT_MILLIS * 1_000_000;
        while (true) {
            for (Class<?> type : inst.getAllLoadedClasses()) {
                if (missing.contains(type.getName()) && inst.isModifiableClass(type)) {
                    found.add(type);
                }
            }
            for (Class<?> type : found) {
                missing.remove(type.getName());
            }
            if (missing.isEmpty() || System.nanoTime() > deadline) {
                return found; // a class that never appears failed to load: nothing to weave
            }
            Thread.sleep(10);
        }
    }
}
