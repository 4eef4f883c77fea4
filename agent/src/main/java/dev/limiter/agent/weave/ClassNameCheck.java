package dev.limiter.agent.weave;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.UnloadedClasses;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.threads.DaemonThreads;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.ReloadListener;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Says once when a {@code method:} or {@code jaxrs:} rule of the file names a class that has not loaded a while
 * after start (or after the reload that brought the rule): such a rule holds nothing, and a misspelt class name
 * (a simple name, a nested class written with a dot, an interface instead of the class that declares the method)
 * would otherwise go unnoticed. The warning names the rule, its class glob and the nearest loaded class name; the
 * rule shows {@code NoClassLoaded} in JMX until its class loads.
 *
 * <p>Runs on a daemon thread of its own ({@code limiter-class-check}), {@code limiter.classCheck.delay}
 * milliseconds (default 60,000; 0 turns the check off) after start and after each reload. A class that loads later
 * still gets woven as usual; the check only reads the loaded classes' names.
 */
public final class ClassNameCheck implements Runnable, ReloadListener {

    static final long DEFAULT_DELAY_MILLIS = 60_000;

    private final RuleSetHolder holder;
    private final Instrumentation inst;
    private final ThrottledLog log;
    private final long delayNanos;
    private volatile long dueNanos;
    private volatile Thread thread;
    /** Rules already warned about (by id and glob), so a reload that keeps them does not warn again. */
    private final Set<String> warned = new HashSet<>();

    private ClassNameCheck(RuleSetHolder holder, Instrumentation inst, String logger, long delayMillis) {
        this.holder = holder;
        this.inst = inst;
        this.log = new ThrottledLog(logger, 0);
        this.delayNanos = delayMillis * 1_000_000L;
        this.dueNanos = System.nanoTime() + delayNanos;
    }

    /** Starts the check for the rules of {@code holder}, unless turned off. */
    public static void start(RuleSetHolder holder, Instrumentation inst, String logger) {
        long delay = Long.getLong("limiter.classCheck.delay", DEFAULT_DELAY_MILLIS);
        if (delay <= 0 || inst == null) {
            return;
        }
        ClassNameCheck check = new ClassNameCheck(holder, inst, logger, delay);
        Thread thread = DaemonThreads.named("limiter-class-check").newThread(check);
        check.thread = thread;
        holder.addListener(check);
        thread.start();
    }

    @Override
    public void reloaded(RuleSet previous, RuleSet current) {
        dueNanos = System.nanoTime() + delayNanos;
        Thread waiting = thread;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    @Override
    public void run() {
        long checked = Long.MIN_VALUE;
        while (true) {
            long due = dueNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
                continue;
            }
            if (due != checked) {
                checked = due;
                try {
                    check(holder.current());
                } catch (Throwable t) {
                    log.warn(Warning.RULES, "limiter: could not check the class names of method and jaxrs rules", t);
                }
            }
            if (dueNanos == checked) {
                LockSupport.park(this);
            }
        }
    }

    /** Finds, warns about and records the rules of {@code rules} whose class glob matches no loaded class. */
    void check(RuleSet rules) {
        List<Rule> candidates = new ArrayList<>();
        for (Rule rule : rules.methodRules()) {
            if (rules.line(rule.id()) > 0) {
                candidates.add(rule);
            }
        }
        for (Rule rule : rules.jaxrsRules()) {
            if (rules.line(rule.id()) > 0) {
                candidates.add(rule);
            }
        }
        if (candidates.isEmpty()) {
            UnloadedClasses.found(Set.of());
            return;
        }
        Class<?>[] loaded = inst.getAllLoadedClasses();
        Set<String> unloaded = new HashSet<>();
        for (Rule rule : candidates) {
            if (!anyMatches(rule, loaded)) {
                unloaded.add(rule.id());
                if (warned.add(rule.id() + " " + rule.classGlob())) {
                    String nearest = NearestName.among(rule.classGlob().pattern(), loaded);
                    log.warn(Warning.RULES,
                            "limiter: rule '" + rule.id() + "' (" + rule.matchText() + ") names no class loaded "
                            + (delayNanos / 1_000_000_000L) + " s after it came in force, so it limits nothing yet:"
                            + " the class must be the binary name of the class that declares the method"
                            + " (com.acme.Outer$Inner for a nested class)"
                            + (nearest == null ? "" : "; the nearest loaded class is " + nearest), null);
                }
            }
        }
        UnloadedClasses.found(unloaded);
    }

    private static boolean anyMatches(Rule rule, Class<?>[] loaded) {
        for (Class<?> type : loaded) {
            if (rule.classGlob().matches(type.getName())) {
                return true;
            }
        }
        return false;
    }
}
