package dev.limiter.agent.weave;

import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The classes the transformer passed over while the rules were still being parsed, so that those the rules turn
 * out to name are woven once they are known; and the wait, at its load, of a class the rules may name.
 *
 * <p>Why: parsing the rules costs a cold JVM about a tenth of a second (YAML, validation, some 200 classes).
 * Done in premain, that is start-up time of every application whose rules name classes. Instead the parse runs on
 * the agent's own thread while the application starts, the transformer weaves what needs no rules (servlets,
 * mappers, {@code @Limit}) and remembers the name of every other class it sees, and when the rules are in, the
 * remembered classes they name are retransformed.
 *
 * <p>A class that the rules may name ({@link #mayName}: one of the class globs a pre-scan of the file's text
 * found matches it) waits for the rules before it is woven ({@link #awaitRules}, bounded), so its methods are
 * limited from their first call: the application's main class, a bean or client built as it starts. Every other
 * class loads at once. Resource and service classes usually load long after the parse, and do not wait. The
 * thread that parses never waits (a class it loads, through logging say, would wait for itself), nor does a
 * class loaded while the transformer works on another one on the same thread; those are remembered.
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
    /** Released when the rules are published, or will not come. */
    private final CountDownLatch published = new CountDownLatch(1);
    /** Every class may be named (the pre-scan could not tell). */
    private final boolean anyClass;
    /** Internal names the file names exactly. */
    private final Set<String> exactNames = new HashSet<>();
    /** The globs with wildcards, and the internal form of each one's literal prefix. */
    private final NameGlob[] globs;
    private final String[] globPrefixes;
    private final long waitMillis;
    private final Thread loader;
    /** Set once a class has waited the whole bound: the others load at once (and are woven after the parse). */
    private volatile boolean gaveUp;

    /** Remembers what passes over; no class waits. */
    RulesAwait(LimiterTransformer transformer) {
        this(transformer, new String[0], null, 0);
    }

    /**
     * @param transformer whose rules ({@link LimiterTransformer#namingRules}) are null until they are known
     * @param classGlobs  the class globs the rules file may hold, null if any class may be named
     * @param loader      the thread that parses the rules: the classes it loads never wait
     * @param waitMillis  how long a class the rules may name waits for them at most
     */
    RulesAwait(LimiterTransformer transformer, String[] classGlobs, Thread loader, long waitMillis) {
        this.transformer = transformer;
        this.anyClass = classGlobs == null;
        this.loader = loader;
        this.waitMillis = waitMillis;
        List<NameGlob> wild = new ArrayList<>();
        if (classGlobs != null) {
            for (String text : classGlobs) {
                if (text.indexOf('*') < 0 && text.indexOf('?') < 0) {
                    exactNames.add(text.replace('.', '/')); // as NameGlob.internalPrefix of an exact glob
                } else {
                    wild.add(NameGlob.compile(text));
                }
            }
        }
        this.globs = wild.toArray(new NameGlob[0]);
        this.globPrefixes = new String[globs.length];
        for (int i = 0; i < globs.length; i++) {
            globPrefixes[i] = globs[i].internalPrefix();
        }
    }

    /**
     * True if the rules may name the class called {@code internalName} ({@code a/b/C}): it then waits for them
     * ({@link #awaitRules}) before it is woven. Allocation-free unless a glob's literal prefix matches.
     */
    boolean mayName(String internalName) {
        if (anyClass || exactNames.contains(internalName)) {
            return true;
        }
        String binaryName = null;
        for (int i = 0; i < globs.length; i++) {
            if (internalName.startsWith(globPrefixes[i])) {
                if (binaryName == null) {
                    binaryName = internalName.replace('/', '.');
                }
                if (globs[i].matches(binaryName)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Waits until the rules are published (or will not come), at most the bound, before {@code internalName} is
     * woven (logged with {@code limiter.debug}). Returns at once on the thread that parses them, and once a class
     * has waited the whole bound in vain (a parse that slow would otherwise hold up every such class in turn).
     * Returns the milliseconds waited, or -1 if it did not wait.
     */
    long awaitRules(String internalName) {
        if (waitMillis <= 0 || gaveUp || Thread.currentThread() == loader || published.getCount() == 0) {
            return -1;
        }
        Diagnostics.waitingForRules(internalName);
        long started = System.nanoTime();
        try {
            if (!published.await(waitMillis, TimeUnit.MILLISECONDS)) {
                gaveUp = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        Diagnostics.waitedForRules(internalName, waited);
        return waited;
    }

    /** The rules are published ({@link LimiterTransformer#namingRules} is set), or will not come: wakes the waiting. */
    void released() {
        published.countDown();
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
