package dev.limiter.agent.startup;

import dev.limiter.agent.diagnostics.AgentVersion;
import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.Reweaving;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.jfr.FlightEvents;
import dev.limiter.agent.jfr.FlightRecorderSupport;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.registry.EntryPoints;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.agent.servlet.ServletWarmUp;
import dev.limiter.agent.store.RedisLimiterFactory;
import dev.limiter.agent.store.StoreRetention;
import dev.limiter.agent.threads.DaemonThreads;
import dev.limiter.agent.weave.LimiterTransformer;
import dev.limiter.agent.weave.PreloadedClasses;
import dev.limiter.agent.weave.WeaverWarmUp;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.SystemClock;
import dev.limiter.redis.RedisStoreStats;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The agent's start-up inside its isolated class loader, as one list of phases:
 *
 * <pre>
 *  premain, on the application's main thread:
 *   1 ARGS        parse the agent arguments (bad ones: logged, the application runs unprotected)
 *   2 READ        read the rules file once; its bytes decide whether the parse may run in the background, and
 *                 which classes its rules may name (a pre-scan of its class globs)
 *   3 GATE        a request or woven-method call that comes before the rules waits for them ({@link StartupGate})
 *   4 WEAVE       install the transformer: servlets, filters, mappers and @Limit methods are woven from now
 *                 on; a class the pre-scan says the rules may name waits for them at its load
 *  then on the limiter-rules daemon thread, so the application's start-up and ours overlap:
 *   5 PARSE       register custom strategy jars, parse the rules (Redis-backed where they say so), banner
 *   6 LIMIT       the servlet and method limiters go into the bridge (a stack woven in named classes only: at
 *                 the first weave of one); the transformer learns the rules
 *   7 WARM UP     on limiter-warm-up, beside 5 and 6, once weaving is coming ({@link LimiterTransformer#weaving},
 *                 or at once if the file may have method: rules): the weaver's one-time work ({@link WarmUps})
 *   8 RUN         after the first request (or limiter.jmx.delay, or 10 s), on limiter-after-start: reload log and
 *                 re-weaving, class-name check, JFR events' listeners, file watcher, JMX, the Prometheus endpoint
 *   9 WARM UP     on limiter-warm-up: the first servlet request's one-time work, once a servlet or filter class
 *                 is woven (never on stacks without one: WebFlux, gRPC, Quarkus), before the container serves
 * </pre>
 *
 * {@code strict=true}, and a late attach (or a JVM whose AOT cache loaded application classes before premain)
 * with rules that may name classes ({@code method:}, {@code jaxrs:}), run 5 and 6 in premain before 4 (strict
 * must stop the JVM before the application runs; a late attach weaves the loaded classes the rules name at
 * installation), then 8; there is no gate and no warm-up. A Java 25 AOT cache's training run ({@link #train}) runs
 * 1, 5 and 6 and both warm-ups in premain, without the transformer, and nothing after. Otherwise a class
 * that the file's class globs match and that loads before the parse ends waits for the rules and is woven under
 * them (so a {@code method:} rule on the main class holds from the first call); the classes the rules name that
 * loaded on the rules thread itself, or waited longer than the gate's bound, are remembered and woven after the
 * parse. Invalid rules do not stop the application (it starts unprotected and the watcher picks up the fixed
 * file) unless {@code strict=true}.
 *
 * <p>Why each place: no JMX in premain (an early platform MBean server breaks some servers, e.g. WildFly); JUL is
 * set up first, before any other thread of ours can ask for it (a LogManager initialising on the application's
 * thread while ours waits on it is how agents deadlock), with the LogManager a framework's launcher would name
 * in its main named first ({@link FrameworkLogManager}: Quarkus); no lambdas on the start-up path (each spins
 * classes).
 */
public final class Startup {

    static final String LOGGER = "dev.limiter";

    /**
     * The banner's source class, given explicitly so the first record spares the stack walk (StackWalker and its
     * lambdas, ~13 classes, 10-20 ms of CPU on the rules thread). No source method: JUL's {@code SimpleFormatter}
     * joins class and method with a string concatenation compiled as {@code invokedynamic}, whose first use
     * spins ~10 method-handle classes (and the JIT then compiles the JDK's method-handle code) in an application
     * that would otherwise never format a JUL record (Spring Boot's go to Logback).
     */
    private static final String BANNER_SOURCE = Startup.class.getName();

    private final Instrumentation inst;
    private final boolean attached;
    /**
     * True if application classes were loaded before the agent: a late attach, or a Java 24+ AOT cache that
     * loaded its classes as the JVM started ({@link PreloadedClasses}). Then the loaded classes the agent weaves
     * are retransformed, and rules that may name classes are parsed before the installation returns.
     */
    private final boolean loadedEarly;
    private final long started = System.nanoTime();
    private final Logger log;
    private final ThrottledLog errors = new ThrottledLog(LOGGER, 10_000);
    private AgentArgs args;
    private RulesFile file;
    private LimiterTransformer transformer;
    private RedisLimiterFactory store;

    private Startup(Instrumentation inst, boolean attached) {
        this.inst = inst;
        this.attached = attached;
        this.loadedEarly = attached || PreloadedClasses.found(inst);
        this.log = Logger.getLogger(LOGGER);
    }

    /**
     * Starts the agent; {@code attached} for a late attach (agentmain), when the application's classes may be
     * loaded already and need retransforming.
     */
    public static void run(String rawArgs, Instrumentation inst, boolean attached) {
        // before the first use of JUL below: the LogManager a framework's main installs (Quarkus) is the JVM's one
        FrameworkLogManager.adopt();
        new Startup(inst, attached).start(rawArgs);
    }

    /**
     * A Java 25 AOT cache's training run ({@code -XX:AOTCacheOutput}, {@code -XX:AOTMode=record}): runs what a start
     * runs (the parse, the limiters, both warm-ups) once on this thread, so the cache holds the agent's classes and
     * the runs that use it define them from there. No transformer: a cache that holds classes the agent wove
     * crashes the JVMs that use it (Java 25.0.3), so nothing is woven and no rule applies in this run; and none of
     * the start-up's threads, no JMX, no file watcher (a {@code store: redis} rule's store connects, as at any
     * start). The runs that use the cache start the agent as usual, and it weaves the
     * classes the cache loaded early then.
     */
    public static void train(String rawArgs, Instrumentation inst) {
        FrameworkLogManager.adopt();
        new Startup(inst, false).train(rawArgs);
    }

    private void train(String rawArgs) {
        log.info("limiter: an AOT cache's training run (-XX:AOTMode=record): the agent loads its classes for the"
                + " cache, weaves nothing here and starts in the runs that use the cache");
        if (!args(rawArgs)) {
            return;
        }
        file = RulesFile.read(args.rules());
        try {
            RuleSetHolder holder = parse();
            limit(holder, null);
            WeaverWarmUp.run();
            ServletWarmUp.run(holder.current());
        } catch (Throwable t) {
            log.log(Level.WARNING, "limiter: the AOT cache's training run could not load all of the agent's"
                    + " classes; the cache holds fewer of them", t);
        }
    }

    private void start(String rawArgs) {
        if (!args(rawArgs)) {
            return;
        }
        file = RulesFile.read(args.rules());
        // strict stops the JVM on bad rules before the application starts; a late attach (or an AOT cache's early
        // classes) weaves the loaded classes the rules name at installation. Otherwise the application's start
        // does not wait for the parse.
        if (args.strict() || (loadedEarly && file.mayNameClasses())) {
            // a late attach: method rules hold from agentmain's return, once the loaded classes they name are woven
            long attachMillis = attached ? Reweaving.pending(System.currentTimeMillis()) : 0;
            RuleSetHolder holder = parse();
            long parsed = System.nanoTime();
            limit(holder, null);
            weave(holder, true, null);
            long woven = System.nanoTime();
            if (attached) {
                log.info("limiter: " + Reweaving.attached(attachMillis, Diagnostics.wovenClasses()));
            }
            Diagnostics.startupTimes((parsed - started) / 1_000_000, (woven - parsed) / 1_000_000,
                    (woven - started) / 1_000_000);
            run(holder);
            return;
        }
        StartupGate gate = new StartupGate();
        gate.install();
        Thread rules = DaemonThreads.named("limiter-rules").newThread(new RulesThread(this, gate));
        gate.loadedBy(rules);
        long weaving = System.nanoTime();
        weave(null, loadedEarly, file.mayNameClasses() ? rules : null);
        long woven = System.nanoTime();
        Diagnostics.startupTimes(-1, (woven - weaving) / 1_000_000, (woven - started) / 1_000_000);
        // the thread's loader is the agent's (it runs agent code); the application's never leaks into it
        rules.setContextClassLoader(Startup.class.getClassLoader());
        rules.start();
    }

    /** Phase 1: false if the arguments are invalid (logged; the agent does not start). */
    private boolean args(String rawArgs) {
        try {
            args = AgentArgs.parse(rawArgs);
            return true;
        } catch (IllegalArgumentException e) {
            log.severe("limiter " + AgentVersion.get() + " not started: " + e.getMessage()
                    + "; the application runs unprotected");
            return false;
        }
    }

    /**
     * Phase 4: installs the transformer, knowing the rules that name classes if they are parsed already (else,
     * if {@code rulesThread} will parse rules that may name classes, remembering what it passes over until they
     * are, and making a class the file's class globs match wait for them at its load, as long as a request waits
     * at the gate); loaded classes are examined only if {@code loadedMayMatch} (a late attach, or rules parsed
     * already).
     */
    private void weave(RuleSetHolder holder, boolean loadedMayMatch, Thread rulesThread) {
        transformer = LimiterTransformer.create(errors, Diagnostics.WOVEN_LISTENER);
        if (holder != null) {
            transformer.rulesLoaded(holder);
        } else if (rulesThread != null) {
            transformer.awaitRules(file.classGlobs(), rulesThread, StartupGate.WAIT_MILLIS);
        }
        transformer.installOn(inst, loadedMayMatch);
    }

    /**
     * Phase 5: registers the {@code strategies=} jars (rules name them), parses the rules with Redis-backed
     * limiters for {@code store: redis} rules, and prints the banner (or, with {@code strict=true}, stops the JVM
     * on invalid rules). Nothing of Redis is loaded unless a rule asks for it. Rules read time from
     * {@link SystemClock}: a coarse clock's timer thread would wake 1,000 times a second under traffic, more
     * than a {@code currentTimeMillis()} per check costs at one JVM's request rates (docs/strategies.md, "Time").
     */
    private RuleSetHolder parse() {
        List<String> custom = customStrategies();
        store = new RedisLimiterFactory(log);
        RuleSetHolder holder = RuleSetHolder.open(file.path(), file.bytes(), SystemClock.INSTANCE, store);
        StoreRetention retention = new StoreRetention(store);
        retention.retain(holder.current());
        holder.addListener(retention);
        String banner = StartupBanner.of(AgentVersion.get(), holder);
        if (!custom.isEmpty()) {
            banner += "\ncustom strategies " + String.join(", ", custom) + " from " + args.strategies();
        }
        if (holder.lastError() != null) {
            if (args.strict()) {
                log.severe(banner + "\nlimiter: strict=true, stopping the JVM");
                System.exit(1);
            }
            BannerOutput.print(log, Level.WARNING, BANNER_SOURCE, banner, System.err);
        } else {
            BannerOutput.print(log, Level.INFO, BANNER_SOURCE, banner, System.err);
        }
        return holder;
    }

    /**
     * A bad {@code strategies=} jar is logged with its reason; the rules that use its strategies are then invalid
     * like any unknown strategy, so {@code strict=true} stops the JVM here already, with the real reason.
     */
    private List<String> customStrategies() {
        try {
            return StrategyJars.load(args.strategies());
        } catch (IllegalArgumentException e) {
            if (args.strict()) {
                log.severe("limiter " + AgentVersion.get() + ": " + e.getMessage()
                        + "\nlimiter: strict=true, stopping the JVM");
                System.exit(1);
            }
            log.severe("limiter " + AgentVersion.get() + ": " + e.getMessage()
                    + "; rules that use its strategies are invalid");
            return List.of();
        }
    }

    /**
     * Phase 6: the limiters into the bridge: every registered entry point installs its own ({@link EntryPoints}),
     * those woven in named classes only once the transformer first weaves one ({@link #installAtFirstWeave}),
     * then the woven methods' (reading HTTP keys through the entry points' request views) and the servlets', through
     * {@code gate} if requests and calls wait for them. The servlet limiter is
     * wrapped until the first request has ended, which opens the JMX gate ({@link FirstRequestDelegate}).
     */
    private void limit(RuleSetHolder holder, StartupGate gate) {
        EntryWiring wiring = new EntryWiring(holder, errors);
        RequestViews.Lookup[] views = new RequestViews.Lookup[EntryPoints.ALL.length];
        int viewCount = 0;
        for (EntryPoint entry : EntryPoints.ALL) {
            if (transformer != null && entry.installsAtFirstWeave()) {
                // built when its class is first woven (maybe now): a JVM without the stack never loads it
                transformer.firstWeaves().whenWoven(entry.targets(), new Runnable() { // a class: no lambda spun
                    @Override
                    public void run() {
                        installAtFirstWeave(entry, wiring);
                    }
                });
            } else {
                entry.install(wiring);
            }
            RequestViews.Lookup view = entry.requestView(wiring);
            if (view != null) {
                views[viewCount++] = view;
            }
        }
        wiring.installClients(); // once every client's kind is in: a call before it waits at the gate
        MethodLimiter methods = new MethodLimiter(holder, errors,
                new RequestViews(java.util.Arrays.copyOf(views, viewCount)));
        FirstRequestDelegate servlets = new FirstRequestDelegate(new ServletLimiter(holder, errors));
        if (gate == null) {
            LimiterBridge.installMethods(methods);
            LimiterBridge.install(servlets);
        } else {
            gate.ready(servlets, methods);
        }
    }

    /**
     * Installs {@code entry}, on the application's thread that loads its first woven class (or the rules thread,
     * if that class loaded during the parse): a failure is logged and that stack runs unlimited; the class itself
     * is still woven and the application goes on.
     */
    private static void installAtFirstWeave(EntryPoint entry, EntryWiring wiring) {
        try {
            entry.install(wiring);
        } catch (Throwable t) {
            wiring.log().warn(Warning.WEAVING, "limiter: cannot install " + entry.getClass().getSimpleName()
                    + "; its calls run unlimited", t);
        }
    }

    /**
     * Phase 8: all of it on {@code limiter-after-start} once start-up is done ({@link AfterStartup}), except what
     * a first request may need: JFR's Redis-failure events, when a rule uses Redis already.
     */
    private void run(RuleSetHolder holder) {
        if (store.active() != null && FlightRecorderSupport.AVAILABLE) {
            RedisStoreStats.failureListener(FlightEvents.storeFailures());
        }
        Thread after = DaemonThreads.named("limiter-after-start")
                .newThread(new AfterStartup(holder, inst, store, args.prometheus(), LOGGER, log, errors));
        // as the rules thread's: the watcher it starts reloads (and parses) with the agent's loader, also when
        // strict=true or a late attach start it from the application's thread
        after.setContextClassLoader(Startup.class.getClassLoader());
        after.start();
    }

    /** Phases 5-9 off the application's main thread (a class, not a lambda: nothing to spin in premain). */
    private static final class RulesThread implements Runnable {

        private final Startup startup;
        private final StartupGate gate;

        RulesThread(Startup startup, StartupGate gate) {
            this.startup = startup;
            this.gate = gate;
        }

        /**
         * The warm-ups' thread first (it waits until weaving is coming), then the rules and the banner (a request
         * that waits for the rules finds the banner printed, so even a short-lived application shows it).
         */
        @Override
        public void run() {
            RuleSetHolder holder = null;
            WarmUps warmUps = new WarmUps(startup.transformer, startup.file.mayHaveMethodRules());
            Thread warmUp = DaemonThreads.named("limiter-warm-up").newThread(warmUps);
            warmUp.setContextClassLoader(Startup.class.getClassLoader());
            warmUp.start();
            try {
                long parse = System.nanoTime();
                holder = startup.parse();
                Diagnostics.rulesLoaded((System.nanoTime() - parse) / 1_000_000);
                startup.limit(holder, gate);
                int late = startup.transformer.rulesLoadedLate(holder, startup.inst);
                Diagnostics.wovenLate(late);
            } catch (Throwable t) {
                startup.log.log(Level.SEVERE, "limiter: cannot load the rules; the application runs unprotected", t);
                gate.failed(); // waiting requests and calls go on (unchecked) at once
                startup.transformer.rulesFailed(); // and so do classes waiting to be woven
                warmUps.rulesFailed();
                return;
            }
            warmUps.rulesLoaded(holder);
            startup.run(holder);
        }
    }
}
