package dev.limiter.agent.method;

import dev.limiter.rules.RuleSet;
import java.lang.ref.WeakReference;

/**
 * One woven method: what it is (kind, class, method, which argument is its key) and the rules that apply to it
 * under the current snapshot.
 *
 * <p>Immutable apart from two caches that only change after a reload or on a first rejection (the site's
 * {@link SiteRules} for the latest snapshot, and the resolved {@code throw:} classes, {@link ThrowableFactory})
 * and a flag set by a one-time warning.
 * The class loader is held weakly, so a site never keeps an undeployed web application alive. A site is
 * identified by an int ({@link #id}) that the woven code carries as a constant.
 */
final class WovenSite {

    final int id;
    final SiteKind kind;
    final String className;
    final String methodName;
    final String descriptor;
    /** Parameter index of the woven key argument, or -1 if the site passes null. */
    final int keyIndex;
    /** For JAX-RS sites keyed by {@code path-param:NAME}: NAME (the argument is its {@code @PathParam}); else null. */
    final String keyName;
    /** Binary names of the exceptions the method declares, to tell whether a checked {@code throw:} may be thrown. */
    final String[] declaredExceptions;
    /** The rule id of the method's {@code @Limit}, or null: its rule applies whatever the rules file matches. */
    final String annotationId;
    /** Parameter index of the woven cost argument ({@code cost: arg:N}), or -1 if the site passes 1. */
    final int costIndex;
    private final WeakReference<ClassLoader> loader;
    private final boolean bootLoader;

    private volatile SiteRules rules;
    volatile ThrowTarget[] throwTargets = new ThrowTarget[0];
    /** Set once the missing servlet request of this JAX-RS site's request conditions has been logged. */
    volatile boolean warnedNoRequest;

    WovenSite(int id, SiteKind kind, ClassLoader loader, String className, String methodName, String descriptor,
            int keyIndex, String keyName, String[] declaredExceptions, String annotationId, int costIndex) {
        this.id = id;
        this.kind = kind;
        this.loader = new WeakReference<>(loader);
        this.bootLoader = loader == null;
        this.className = className;
        this.methodName = methodName;
        this.descriptor = descriptor;
        this.keyIndex = keyIndex;
        this.keyName = keyName;
        this.declaredExceptions = declaredExceptions;
        this.annotationId = annotationId;
        this.costIndex = costIndex;
    }

    /**
     * The rules of this site under {@code current}: the cached ones unless the snapshot changed since, so the
     * call path allocates only after a reload. Two threads racing after a reload both compute; either result is
     * right.
     */
    SiteRules rules(RuleSet current) {
        SiteRules cached = rules;
        if (cached != null && cached.set == current) {
            return cached;
        }
        SiteRules fresh = SiteRules.of(current, this);
        rules = fresh;
        return fresh;
    }

    /** The woven class's loader (null for the boot loader, or once the loader has been collected). */
    ClassLoader loader() {
        return loader.get();
    }

    /** True if this site was woven in {@code candidate} (identity; null is the boot loader). */
    boolean loadedBy(ClassLoader candidate) {
        return bootLoader ? candidate == null : loader.get() == candidate && candidate != null;
    }

    /** True once the woven class's loader has been collected: no code can reach this site any more. */
    boolean stale() {
        return !bootLoader && loader.get() == null;
    }

    /** {@code com.acme.Mailer#send}, for messages. */
    String describe() {
        return className + "#" + methodName;
    }

    /** Which argument the woven code passes, for messages. */
    String describeKey() {
        if (keyIndex < 0) {
            return "no key argument";
        }
        return keyName != null ? "@PathParam(\"" + keyName + "\") (argument " + keyIndex + ")" : "arg:" + keyIndex;
    }

    /** Which argument the woven code passes as the cost, for messages. */
    String describeCost() {
        return costIndex < 0 ? "no cost argument" : "its cost from arg:" + costIndex;
    }

    /** The type name of parameter {@code index} (from the descriptor), or null if the method has no such one. */
    String parameterType(int index) {
        net.bytebuddy.jar.asm.Type[] types = net.bytebuddy.jar.asm.Type.getArgumentTypes(descriptor);
        return index < types.length ? types[index].getClassName() : null;
    }

    @Override
    public String toString() {
        return "site " + id + " " + kind + " " + describe() + descriptor + " key " + describeKey()
                + (costIndex < 0 ? "" : " cost arg:" + costIndex);
    }
}
