package dev.limiter.agent.weave;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.method.LimitDeclarations;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The agent's class file transformer: decides cheaply which classes to weave, and weaves them with plain ASM.
 *
 * <p>Why not Byte Buddy's {@code AgentBuilder}: building one costs most of the agent's start-up (its
 * transformer's static initialiser generates a class with Byte Buddy, its set-up creates reflective proxies),
 * although our matching needs none of it. Here every class is first rejected by name ({@link IgnoredTypes}),
 * then by what its loader can see ({@link ApiVisibility}), then by the method names in its constant pool
 * ({@link EntryPointNames}), and only then are its class-file header and those of its super types read
 * ({@link SuperTypes}); a class a {@code method:} or {@code jaxrs:} rule names is recognised by name, a class
 * carrying {@code @Limit} by the annotation's descriptor in its constant pool ({@link AnnotationPresence}) and
 * then its class file (not in the classes of known libraries: {@link LibraryPackages}). Servlets, filters and
 * mappers are woven by {@link EntryPointWeaver}; the classes rules or annotations name by {@link ClassWeaver},
 * which reads their class files and writes their code with ASM too.
 *
 * <p>Only method bodies change (classes stay retransformable), a failure is logged (throttled) and leaves the
 * class unchanged, and re-entrant calls on one thread (a class loaded while this transformer runs) are passed
 * over. {@link #reset} removes it and restores the classes it wove (tests and tools).
 */
public final class LimiterTransformer implements ClassFileTransformer {

    private volatile RuleSetHolder namingRules;
    /** While the rules are parsed after the transformer is installed: what it passed over meanwhile; else null. */
    private volatile RulesAwait await;
    private final ThrottledLog log;
    private final Consumer<String> onWoven;
    private final int targetMask;
    /** The {@link WeaveTarget#EXACT_CLASSES} targets this transformer weaves, each in its one named class. */
    private final int exactMask;
    private final ApiVisibility apis = new ApiVisibility();
    private final Sighting servlets = new Sighting();
    private final Sighting weaving = new Sighting();
    private final FirstWeaves firstWeaves = new FirstWeaves();
    private final SuperTypes superTypes = new SuperTypes();
    private volatile ClassWeaver weaver;
    private final ThreadLocal<Boolean> busy = new ThreadLocal<>();
    /** Binary names of the classes woven for their {@code @Limit} annotations (for retransformation). */
    private final Set<String> annotated = ConcurrentHashMap.newKeySet();

    private LimiterTransformer(int targetMask, ThrottledLog log, Consumer<String> onWoven) {
        this.targetMask = targetMask & ~WeaveTarget.EXACT_CLASSES;
        this.exactMask = targetMask & WeaveTarget.EXACT_CLASSES;
        this.log = log;
        this.onWoven = onWoven;
    }

    /**
     * Weaves every registered entry point (servlets, filters, exception mappers, the named framework and client
     * classes: they need no rules), and the classes rules name once
     * {@link #rulesLoaded} says which.
     *
     * @param log     where failed transformations are reported
     * @param onWoven told the binary name of every class woven
     */
    public static LimiterTransformer create(ThrottledLog log, Consumer<String> onWoven) {
        return new LimiterTransformer(WeaveTarget.EVERY, log,
                onWoven);
    }

    /** {@link #create} knowing the rules already. */
    public static LimiterTransformer forRules(RuleSetHolder holder, ThrottledLog log, Consumer<String> onWoven) {
        LimiterTransformer transformer = create(log, onWoven);
        transformer.rulesLoaded(holder);
        return transformer;
    }

    /** Weaves servlets and filters only (tests of the entry points). */
    public static LimiterTransformer servletsOnly(ThrottledLog log, Consumer<String> onWoven) {
        return new LimiterTransformer(WeaveTarget.SERVLETS, log, onWoven);
    }

    /**
     * From now on, classes the {@code method:} and {@code jaxrs:} rules of {@code holder} name are woven (read at
     * each class load, so a retransformation after a reload sees the new rules). Until then none are (see
     * {@link #awaitRules} for the classes that load meanwhile). The transformer never waits for rules.
     */
    public void rulesLoaded(RuleSetHolder holder) {
        namingRules = holder;
    }

    /** Told when the first servlet or filter class is woven. */
    public Sighting servlets() {
        return servlets;
    }

    /** Work that waits for the first weave of a class of targets woven by name. */
    public FirstWeaves firstWeaves() {
        return firstWeaves;
    }

    /**
     * Told at the first sign that a class will be woven: a class loader that sees a woven API, a class of a
     * library one of whose classes is woven by name, or a class that may carry {@code @Limit}.
     */
    public Sighting weaving() {
        return weaving;
    }

    /** The rules that say which classes to weave, or null until they are known. */
    RuleSetHolder namingRules() {
        return namingRules;
    }

    /**
     * Before {@link #installOn}, for rules that may name classes but are parsed after installation: the classes
     * passed over until {@link #rulesLoadedLate} are remembered, to be woven then if the rules name them. No class
     * waits for the rules (tests).
     */
    public void awaitRules() {
        await = new RulesAwait(this);
    }

    /**
     * {@link #awaitRules()}, and a class that one of {@code classGlobs} matches (any class if null) waits for the
     * rules at its load, at most {@code waitMillis}, unless {@code rulesThread} loads it; it is then woven under
     * the rules, so the methods they name are limited from their first call.
     */
    public void awaitRules(String[] classGlobs, Thread rulesThread, long waitMillis) {
        await = new RulesAwait(this, classGlobs, rulesThread, waitMillis);
    }

    /** The rules will not come (the parse failed): classes waiting for them go on at once, none is remembered. */
    public void rulesFailed() {
        RulesAwait passed = await;
        await = null;
        if (passed != null) {
            passed.released();
        }
    }

    /**
     * {@link #rulesLoaded}, after {@link #awaitRules}: also retransforms the classes that loaded before and that
     * {@code holder}'s rules name; returns how many. Runs on the agent's thread, never the application's; a
     * failure is logged, never thrown.
     */
    public int rulesLoadedLate(RuleSetHolder holder, Instrumentation inst) {
        namingRules = holder;
        RulesAwait passed = await;
        if (passed == null) {
            return 0;
        }
        passed.released(); // the classes waiting for the rules are woven under them now
        Set<String> named = passed.namedBy(holder.current());
        await = null;
        try {
            return named.isEmpty() ? 0 : LoadedClasses.retransform(inst, RulesAwait.loaded(inst, named), log);
        } catch (Throwable t) {
            if (t instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn(Warning.WEAVING,
                    "limiter: cannot weave the classes " + named + " loaded before the rules; they run unlimited"
                    + " until a reload re-weaves them", t);
            return 0;
        }
    }

    /** Created with the first class a {@code method:} or {@code jaxrs:} rule or {@code @Limit} names. */
    private ClassWeaver weaver() {
        ClassWeaver current = weaver;
        if (current == null) {
            synchronized (this) {
                current = weaver;
                if (current == null) {
                    current = new ClassWeaver();
                    weaver = current;
                }
            }
        }
        return current;
    }

    /**
     * Registers the transformer (retransformation capable) and retransforms the already loaded classes it
     * would weave: none in premain, the application's servlets and named classes after a late attach.
     */
    public LimiterTransformer installOn(Instrumentation inst) {
        return installOn(inst, true);
    }

    /**
     * {@link #installOn(Instrumentation)}, looking at the loaded classes only if {@code loadedMayMatch}: in
     * premain only the JDK's and ours are loaded, and walking them (~800 names) costs the application's main
     * thread 2-3 ms.
     */
    public LimiterTransformer installOn(Instrumentation inst, boolean loadedMayMatch) {
        if (exactMask != 0) {
            JdkModuleReads.prepare(inst, WeaveTarget.JDK_MODULES, log);
        }
        inst.addTransformer(this, true);
        if (loadedMayMatch) {
            LoadedClasses.retransform(inst, LoadedClasses.select(inst, this), log);
        }
        return this;
    }

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain domain,
            byte[] classFile) {
        if (internalName == null || IgnoredTypes.ignoredInternalName(internalName)
                && (exactMask == 0 || !WeaveTarget.isWovenJdkClass(internalName) || !JdkModuleReads.ensure())) {
            return null;
        }
        try {
            int exact = exactMask == 0 ? 0 : WeaveTarget.exactBits(internalName) & exactMask;
            if (!weaving.seen() && (exact != 0 || exactMask != 0 && WeaveTarget.inExactLibrary(internalName))) {
                weaving.sight();
            }
            if (exact != 0) { // one named framework class (WebFlux's adapter): no rules, no super types to read
                byte[] woven = EntryPointWeaver.weave(classFile, exact);
                if (woven == null) { // renamed or moved in this version: say so, or its rules silently do nothing
                    log.warn(Warning.UNSUPPORTED, "limiter: " + internalName.replace('/', '.') + " declares none of"
                            + " the methods the agent weaves in it (" + WeaveTarget.describe(exact) + "): this version"
                            + " is not supported, and what passes through it is not limited", null);
                    return null;
                }
                firstWeaves.woven(exact); // its entry point's delegate, before the class can run
                onWoven.accept(internalName.replace('/', '.'));
                return woven;
            }
            // up to the super-type walk nothing runs foreign code (a loader's methods), so the re-entrance
            // guard (a thread-local) is only taken after it: most classes never touch it
            int visible = apis.known(loader);
            if (visible == ApiVisibility.UNKNOWN) {
                if (!enterGuard()) {
                    return null;
                }
                try {
                    visible = apis.of(loader);
                } finally {
                    busy.remove();
                }
            }
            visible &= targetMask;
            // one walk of the constant pool: entry-point names, and the descriptor of @Limit (parsed only if there);
            // the classes of known libraries are not looked at for @Limit (LibraryPackages)
            boolean library = LibraryPackages.contains(internalName);
            int scan = visible != 0
                    ? EntryPointNames.scan(classFile, visible) & (library ? ~EntryPointNames.ANNOTATED : ~0)
                    : !library && AnnotationPresence.mayDeclare(classFile) ? EntryPointNames.ANNOTATED : 0;
            boolean candidate = (scan & EntryPointNames.ENTRY_POINT) != 0;
            boolean mayBeAnnotated = (scan & EntryPointNames.ANNOTATED) != 0;
            if ((visible != 0 || mayBeAnnotated) && !weaving.seen()) {
                weaving.sight();
            }
            String binaryName = null;
            boolean named = false;
            // the await first: the rules thread publishes the rules before it drops the await, so a null await
            // here means the rules are read below; read the other way round, both could be missed
            RulesAwait passed = await;
            RuleSetHolder holder = namingRules;
            if (holder == null && passed != null) {
                if (passed.awaiting()) {
                    // a class the rules may name waits for them, unless it loads inside our own work on this thread
                    if (passed.mayName(internalName) && busy.get() == null) {
                        passed.awaitRules(internalName);
                    }
                    holder = passed.rulesOrRemember(internalName);
                } else {
                    holder = namingRules; // the remembered names were read already: the rules are published
                }
            }
            if (holder != null) {
                RuleSet current = holder.current();
                // most classes are rejected on their internal name, before it is converted or a glob runs
                if (current.mayNameInternalClass(internalName)) {
                    binaryName = internalName.replace('/', '.');
                    named = current.namesMethodClass(binaryName) || current.namesJaxrsClass(binaryName);
                }
            }
            if (!candidate && !named && !mayBeAnnotated) {
                return null;
            }
            if (!enterGuard()) {
                return null;
            }
            try {
                LimitDeclarations declared = mayBeAnnotated ? LimitDeclarations.read(classFile) : null;
                int targets = candidate ? superTypes.of(loader, internalName, classFile) & visible : 0;
                if (targets == 0 && !named && declared == null) {
                    return null;
                }
                if (binaryName == null) {
                    binaryName = internalName.replace('/', '.');
                }
                if (declared != null) {
                    annotated.add(binaryName);
                }
                byte[] woven = named || declared != null
                        ? weaver().weave(loader, binaryName, classFile, targets,
                                holder == null ? RuleSet.empty() : holder.current(), declared)
                        : EntryPointWeaver.weave(classFile, targets);
                if ((targets & WeaveTarget.SERVLETS) != 0) {
                    servlets.sight();
                }
                onWoven.accept(binaryName);
                return woven;
            } finally {
                busy.remove();
            }
        } catch (Throwable t) {
            log.warn(Warning.WEAVING,
                    "limiter: could not instrument " + internalName.replace('/', '.') + "; it runs unlimited", t);
            return null;
        }
    }

    /**
     * Takes the re-entrance guard around work that runs a loader's code; false if this thread holds it already
     * (a class loaded by that work is passed over). The caller removes it in a {@code finally}.
     */
    private boolean enterGuard() {
        if (busy.get() != null) {
            return false;
        }
        busy.set(Boolean.TRUE);
        return true;
    }

    /** True if this transformer weaves {@code type}, judged from the loaded class (for retransformation). */
    boolean weaves(Class<?> type) {
        String name = type.getName();
        if (annotated.contains(name)) {
            return true;
        }
        RuleSetHolder holder = namingRules;
        if (holder != null) {
            RuleSet current = holder.current();
            if (current.namesMethodClass(name) || current.namesJaxrsClass(name)) {
                return true;
            }
        }
        if ((WeaveTarget.exactBitsOfBinaryName(name) & exactMask) != 0) {
            return true;
        }
        int visible = apis.of(type.getClassLoader()) & targetMask;
        return visible != 0 && !type.isInterface() && (LoadedClasses.targetsOf(type) & visible) != 0;
    }

    /**
     * Removes this transformer and retransforms the loaded classes it wove back to their original code (tests and
     * tools); false if it was not installed.
     */
    public boolean reset(Instrumentation inst) {
        if (!inst.removeTransformer(this)) {
            return false;
        }
        LoadedClasses.retransform(inst, LoadedClasses.select(inst, this), log);
        return true;
    }
}
