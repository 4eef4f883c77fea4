package dev.limiter.agent.weave;

import dev.limiter.agent.IgnoredTypes;
import dev.limiter.agent.PendingRules;
import dev.limiter.agent.ThrottledLog;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.utility.JavaModule;

/**
 * The agent's class file transformer: decides cheaply which classes to weave and hands only those to Byte
 * Buddy ({@link ClassWeaver}).
 *
 * <p>Why not Byte Buddy's {@code AgentBuilder}: building one costs most of the agent's start-up (its
 * transformer's static initialiser generates a class with Byte Buddy, its set-up creates reflective proxies),
 * although our matching needs none of it. Here every class is first rejected by name ({@link IgnoredTypes}),
 * then by what its loader can see ({@link ApiVisibility}), then by the method names in its constant pool
 * ({@link EntryPointNames}), and only then are its class-file header and those of its super types read
 * ({@link SuperTypes}); a class
 * a {@code method:} or {@code jaxrs:} rule names is recognised by name. Servlets, filters and mappers are woven
 * with plain ASM ({@link EntryPointWeaver}); Byte Buddy's weaving classes load only with the first class a rule
 * names ({@link ClassWeaver}), so a servlet application with HTTP rules never loads them.
 *
 * <p>Behaviour is that of the {@code AgentBuilder} configuration it replaces: the same classes are woven with
 * the same advice, method bodies only (retransformable), a failure is logged (throttled) and leaves the class
 * unchanged, and re-entrant calls on one thread (a class loaded while this transformer runs) are passed over.
 * It is a {@link ResettableClassFileTransformer} so that tests and tools can remove it and restore the classes.
 */
public final class LimiterTransformer extends ResettableClassFileTransformer.AbstractBase {

    private final PendingRules rules;
    private final ThrottledLog log;
    private final Consumer<String> onWoven;
    private final int targetMask;
    private final ApiVisibility apis = new ApiVisibility();
    private final SuperTypes superTypes = new SuperTypes();
    private volatile ClassWeaver weaver;
    private final ThreadLocal<Boolean> busy = new ThreadLocal<>();

    /**
     * @param holder  the rules naming the methods to weave, or null to weave servlets and filters only
     * @param log     where failed transformations are reported
     * @param onWoven told the binary name of every class woven
     */
    public LimiterTransformer(RuleSetHolder holder, ThrottledLog log, Consumer<String> onWoven) {
        this(holder == null ? null : PendingRules.loaded(holder), log, onWoven);
    }

    /**
     * A transformer for rules that may still be loading: servlets, filters and mappers are woven meanwhile
     * (they need no rules), classes named by rules once the rules are in.
     */
    public static LimiterTransformer forRules(PendingRules rules, ThrottledLog log, Consumer<String> onWoven) {
        return new LimiterTransformer(rules, log, onWoven);
    }

    private LimiterTransformer(PendingRules rules, ThrottledLog log, Consumer<String> onWoven) {
        this.rules = rules;
        this.log = log;
        this.onWoven = onWoven;
        this.targetMask = rules == null ? WeaveTarget.SERVLETS : WeaveTarget.SERVLETS | WeaveTarget.MAPPERS;
    }

    /**
     * The rules that decide which classes are named, or null if none can be: no rules, or rules still loading
     * in the background, which the agent only does for a file that cannot name classes
     * ({@link PendingRules#mayNameClasses()}). The transformer never waits.
     */
    private RuleSetHolder namingRules() {
        return rules == null ? null : rules.now();
    }

    /**
     * Created with the first class a {@code method:} or {@code jaxrs:} rule names: Byte Buddy's weaving classes
     * load only then. Servlets, filters and mappers are woven with plain ASM ({@link EntryPointWeaver}).
     */
    private ClassWeaver weaver() {
        ClassWeaver current = weaver;
        if (current == null) {
            synchronized (this) {
                current = weaver;
                if (current == null) {
                    current = new ClassWeaver(LimiterTransformer.class.getClassLoader(), rules.now());
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
        inst.addTransformer(this, true);
        if (loadedMayMatch) {
            LoadedClasses.retransform(inst, LoadedClasses.select(inst, this), log);
        }
        return this;
    }

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain domain,
            byte[] classFile) {
        if (internalName == null || IgnoredTypes.ignoredInternalName(internalName)) {
            return null;
        }
        try {
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
            boolean candidate = visible != 0 && EntryPointNames.mayDeclare(classFile, visible);
            String binaryName = null;
            boolean named = false;
            RuleSetHolder holder = namingRules();
            if (holder != null) {
                RuleSet current = holder.current();
                if (current.maxMethodMatches() > 0) {
                    binaryName = internalName.replace('/', '.');
                    named = current.namesMethodClass(binaryName) || current.namesJaxrsClass(binaryName);
                }
            }
            if (!candidate && !named) {
                return null;
            }
            if (!enterGuard()) {
                return null;
            }
            try {
                int targets = candidate ? superTypes.of(loader, internalName, classFile) & visible : 0;
                if (targets == 0 && !named) {
                    return null;
                }
                if (binaryName == null) {
                    binaryName = internalName.replace('/', '.');
                }
                byte[] woven = named
                        ? weaver().weave(loader, binaryName, classFile, domain, targets, true)
                        : EntryPointWeaver.weave(classFile, targets);
                onWoven.accept(binaryName);
                return woven;
            } finally {
                busy.remove();
            }
        } catch (Throwable t) {
            log.warn("limiter: could not instrument " + internalName.replace('/', '.') + "; it runs unlimited", t);
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
        RuleSetHolder holder = namingRules();
        if (holder != null) {
            RuleSet current = holder.current();
            if (current.namesMethodClass(name) || current.namesJaxrsClass(name)) {
                return true;
            }
        }
        int visible = apis.of(type.getClassLoader()) & targetMask;
        return visible != 0 && !type.isInterface() && (LoadedClasses.targetsOf(type) & visible) != 0;
    }

    @Override
    public Iterator<AgentBuilder.Transformer> iterator(TypeDescription type, ClassLoader loader, JavaModule module,
            Class<?> redefined, ProtectionDomain domain) {
        return Collections.emptyIterator();
    }

    /**
     * Removes this transformer and, unless {@code strategy} is {@code DISABLED}, retransforms the loaded classes
     * it wove back to their original code. Discovery, batching and listener arguments are not used.
     */
    @Override
    public boolean reset(Instrumentation inst, ResettableClassFileTransformer classFileTransformer,
            AgentBuilder.RedefinitionStrategy strategy, AgentBuilder.RedefinitionStrategy.DiscoveryStrategy discovery,
            AgentBuilder.RedefinitionStrategy.BatchAllocator allocator,
            AgentBuilder.RedefinitionStrategy.Listener listener) {
        if (!inst.removeTransformer(classFileTransformer)) {
            return false;
        }
        if (strategy != AgentBuilder.RedefinitionStrategy.DISABLED) {
            List<Class<?>> woven = LoadedClasses.select(inst, this);
            LoadedClasses.retransform(inst, woven, log);
        }
        return true;
    }
}
