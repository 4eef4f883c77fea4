package dev.limiter.agent.weave;

import dev.limiter.agent.diagnostics.Reweaving;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.method.SiteCoverage;
import dev.limiter.agent.threads.DaemonThreads;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.ReloadListener;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Re-weaves already loaded classes after a reload whose {@code method:} / {@code jaxrs:} rules need methods (or
 * key arguments) their woven code does not cover yet.
 *
 * <p>Only new coverage needs bytecode: limits, modes and removed rules are data, read from the snapshot on every
 * call (a removed rule leaves a woven check that finds no rule: a no-op at once). The work runs on one daemon
 * thread, never the reloading one, and retransforms in batches ({@link LoadedClasses}), because a retransformation
 * stops the JVM at a safepoint. Candidates are filtered by name first; only classes a rule names are described
 * (from the loaded class, by reflection) and compared with what their last transformation wove in.
 */
public final class Reweaver implements ReloadListener {

    private final RuleSetHolder holder;
    private final Instrumentation inst;
    private final ThrottledLog log;
    private final AtomicLong retransformed = new AtomicLong();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(DaemonThreads.named("limiter-reweave"));

    public Reweaver(RuleSetHolder holder, Instrumentation inst, ThrottledLog log) {
        this.holder = holder;
        this.inst = inst;
        this.log = log;
    }

    @Override
    public void reloaded(RuleSet previous, RuleSet current) {
        if (current.maxMethodMatches() == 0) {
            return;
        }
        long reloadMillis = Reweaving.pending(System.currentTimeMillis());
        worker.execute(new Reweave(reloadMillis));
    }

    /** Classes retransformed so far because of reloads. */
    public long retransformed() {
        return retransformed.get();
    }

    /**
     * Re-weaves what the rules in force need; says when they are in force (their classes re-woven): in the log,
     * and to JMX and {@code limiter status} through {@link Reweaving}.
     */
    private void reweave(long reloadMillis) {
        int classes = 0;
        boolean failed = false;
        try {
            classes = LoadedClasses.retransform(inst, staleClasses(holder.current()), log);
            retransformed.addAndGet(classes);
        } catch (Throwable t) {
            failed = true;
            log.warn(Warning.WEAVING,
                    "limiter: re-weaving after a reload failed; new method rules apply to classes loaded from now"
                    + " on", t);
        }
        String line = Reweaving.done(reloadMillis, classes, failed);
        try {
            Logger.getLogger("dev.limiter").info("limiter: " + line);
        } catch (Throwable ignored) {
            // logging must never stop the worker
        }
    }

    /** One reload's re-weaving (a class, not a lambda: nothing to spin while the application runs). */
    private final class Reweave implements Runnable {

        private final long reloadMillis;

        Reweave(long reloadMillis) {
            this.reloadMillis = reloadMillis;
        }

        @Override
        public void run() {
            reweave(reloadMillis);
        }
    }

    private List<Class<?>> staleClasses(RuleSet rules) {
        List<Class<?>> stale = new ArrayList<>();
        for (Class<?> type : inst.getAllLoadedClasses()) {
            String name = type.getName();
            if (!(rules.namesMethodClass(name) || rules.namesJaxrsClass(name)) || type.isArray()
                    || type.isInterface() || IgnoredTypes.ignored(name) || !inst.isModifiableClass(type)) {
                continue;
            }
            try {
                if (SiteCoverage.isStale(type, rules)) {
                    stale.add(type);
                }
            } catch (Throwable t) {
                log.warn(Warning.WEAVING, "limiter: cannot inspect " + name + " for new method rules", t);
            }
        }
        return stale;
    }
}
