package dev.limiter.agent;

import dev.limiter.agent.jmx.JmxStarter;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.method.Reweaver;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.agent.servlet.ServletWarmUp;
import dev.limiter.agent.store.StoreWiring;
import dev.limiter.agent.weave.WeaverWarmUp;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts the limiter inside the isolated agent class loader: parse the agent arguments, load the rules, print
 * the banner, plug the servlet decision into the bridge, weave, and start watching the rules file.
 *
 * <p>The transformer ({@link Weaver}) is our own and cheap to install; Byte Buddy's weaving machinery loads with
 * the first class woven. With the {@code AgentBuilder} fallback, Byte Buddy's transformer is prepared on a daemon
 * thread ({@link TransformerWarmUp}) while the rules are parsed.
 *
 * <p>Order matters: custom strategies ({@code strategies=}, {@link StrategyJars}) are registered before the rules
 * are parsed, because rules refer to them by name; the bridge delegates (servlet and method) are installed
 * before weaving, so the first woven request or call is already checked, and the re-weaver listens for reloads only once the transformer that
 * does its work is installed. Invalid rules do not stop the application (it starts unprotected and the watcher picks up the fixed
 * file) unless {@code strict=true}, which exits the JVM with status 1 before the application runs. The file
 * watcher starts on a daemon thread so premain does no file-system watching itself. No JMX here: MBeans are
 * registered after start-up by {@link JmxStarter}'s delayed daemon thread, because an early platform MBean
 * server breaks some servers (WildFly).
 */
public final class AgentInstaller {

    static final String LOGGER = "dev.limiter";

    /**
     * The banner's source as JUL would infer it: given explicitly, so the first record spares the stack walk
     * (StackWalker and its lambdas, ~13 classes, 10-20 ms of CPU on the rules thread).
     */
    private static final String BANNER_SOURCE = AgentInstaller.class.getName();
    private static final String BANNER_METHOD = "loadRules";

    /**
     * Byte Buddy's "never use sun.misc.Unsafe" switch, under our relocated name (so it concerns our copy only).
     * We inject no classes, so we never need Unsafe; without it Java 24+ prints a deprecation warning.
     */
    static final String BYTE_BUDDY_SAFE = "dev.limiter.shaded.bytebuddy.safe";

    private AgentInstaller() {
    }

    /**
     * Called through {@link AgentEntry} (the bootstrap's handoff); {@code attached} for a late attach (agentmain), when the
     * application's classes may be loaded already and need retransforming.
     */
    public static void install(String rawArgs, Instrumentation inst, Path agentJar, boolean attached) {
        long started = System.nanoTime();
        if (System.getProperty(BYTE_BUDDY_SAFE) == null) {
            System.setProperty(BYTE_BUDDY_SAFE, "true");
        }
        // after the property: Byte Buddy reads it at class init
        Thread warmUp = Weaver.usesAgentBuilder() ? TransformerWarmUp.start() : null;
        // JUL set up here, before any other thread of ours can ask for it: a LogManager initialising on the
        // application's thread while ours waits on it is how agents deadlock
        Logger log = Logger.getLogger(LOGGER);
        AgentArgs args;
        try {
            args = AgentArgs.parse(rawArgs);
        } catch (IllegalArgumentException e) {
            log.severe("limiter " + AgentVersion.get() + " not started: " + e.getMessage()
                    + "; the application runs unprotected");
            return;
        }
        ThrottledLog errors = new ThrottledLog(LOGGER, 10_000);
        PendingRules pending = args.strict() || warmUp != null ? null : PendingRules.loading(args.rules());
        if (pending != null && !pending.mayNameClasses()) {
            loadInBackground(args, inst, log, errors, pending, started, attached);
            return;
        }
        RuleSetHolder holder = loadRules(args, log);
        long rulesLoaded = System.nanoTime();
        LimiterBridge.install(new FirstRequestDelegate(new ServletLimiter(holder, errors)));
        LimiterBridge.installMethods(new MethodLimiter(holder, errors));
        if (warmUp != null) {
            TransformerWarmUp.await(warmUp);
        }
        Weaver.install(inst, holder, errors);
        long woven = System.nanoTime();
        Diagnostics.startupTimes((rulesLoaded - started) / 1_000_000, (woven - rulesLoaded) / 1_000_000,
                (woven - started) / 1_000_000);
        start(holder, inst, log, errors);
    }

    /**
     * The fast start for a rules file with HTTP rules only ({@link PendingRules}): the transformer is installed
     * at once and weaves servlets, filters and mappers (which need no rules) while a daemon thread parses the
     * file; a request that arrives before the rules waits for them ({@link PendingServletDelegate}). premain
     * returns without the parse, so the application's start-up and ours overlap.
     */
    private static void loadInBackground(AgentArgs args, Instrumentation inst, Logger log, ThrottledLog errors,
            PendingRules pending, long started, boolean attached) {
        PendingServletDelegate gate = new PendingServletDelegate(pending);
        LimiterBridge.install(gate);
        long weaving = System.nanoTime();
        Weaver.installWhileRulesLoad(inst, pending, errors, attached);
        long woven = System.nanoTime();
        Diagnostics.startupTimes(-1, (woven - weaving) / 1_000_000, (woven - started) / 1_000_000);
        Thread loader = new Thread(new RulesLoader(args, inst, log, errors, pending, gate), "limiter-rules");
        loader.setDaemon(true);
        // the thread's loader is the agent's (it runs agent code); the application's never leaks into it
        loader.setContextClassLoader(AgentInstaller.class.getClassLoader());
        loader.start();
    }

    /**
     * Registers custom strategies, parses the rules and prints the banner (or, with {@code strict=true}, stops
     * the JVM on invalid rules).
     */
    private static RuleSetHolder loadRules(AgentArgs args, Logger log) {
        List<String> custom = customStrategies(args, log);
        RuleSetHolder holder = StoreWiring.open(args.rules(), log);
        String banner = StartupBanner.of(AgentVersion.get(), holder);
        if (!custom.isEmpty()) {
            banner += "\ncustom strategies " + String.join(", ", custom) + " from " + args.strategies();
        }
        if (holder.lastError() != null) {
            if (args.strict()) {
                log.severe(banner + "\nlimiter: strict=true, stopping the JVM");
                System.exit(1);
            }
            log.logp(Level.WARNING, BANNER_SOURCE, BANNER_METHOD, banner);
        } else {
            log.logp(Level.INFO, BANNER_SOURCE, BANNER_METHOD, banner);
        }
        return holder;
    }

    /**
     * Everything that needs the rules once the limiters and the transformer are in: reload logging and
     * re-weaving, the runtime handle, the file watcher and JMX.
     */
    private static void start(RuleSetHolder holder, Instrumentation inst, Logger log, ThrottledLog errors) {
        holder.addListener(new ReloadLog(log));
        holder.addListener(new Reweaver(holder, inst, errors));
        AgentRuntime.publish(new AgentRuntime(holder, inst, errors));
        startWatching(holder, log);
        JmxStarter.start(holder, log);
    }

    /**
     * Registers the {@code strategies=} jars before the rules are parsed (rules name them). A bad jar is logged
     * with its reason; the rules that use its strategies are then invalid like any unknown strategy, so
     * {@code strict=true} stops the JVM here already, with the real reason rather than "unknown strategy".
     */
    private static List<String> customStrategies(AgentArgs args, Logger log) {
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

    /** The background parse of {@link #loadInBackground} (a class, not a lambda: nothing to spin in premain). */
    private static final class RulesLoader implements Runnable {

        private final AgentArgs args;
        private final Instrumentation inst;
        private final Logger log;
        private final ThrottledLog errors;
        private final PendingRules pending;
        private final PendingServletDelegate gate;

        RulesLoader(AgentArgs args, Instrumentation inst, Logger log, ThrottledLog errors, PendingRules pending,
                PendingServletDelegate gate) {
            this.args = args;
            this.inst = inst;
            this.log = log;
            this.errors = errors;
            this.pending = pending;
            this.gate = gate;
        }

        /**
         * The rules and the banner first (a request that waits for the rules finds the banner printed, so even
         * a short-lived application shows it); then the warm-ups of weaving and of the first request, which
         * nothing waits for, while the application is still starting.
         */
        @Override
        public void run() {
            RuleSetHolder holder = null;
            try {
                long parse = System.nanoTime();
                holder = loadRules(args, log);
                Diagnostics.rulesLoaded((System.nanoTime() - parse) / 1_000_000);
                LimiterBridge.installMethods(new MethodLimiter(holder, errors));
                gate.ready(new FirstRequestDelegate(new ServletLimiter(holder, errors)));
            } catch (Throwable t) {
                log.log(Level.SEVERE, "limiter: cannot load the rules; the application runs unprotected", t);
            } finally {
                pending.complete(holder); // also on failure: waiting requests go on (unchecked) at once
            }
            WeaverWarmUp.run();
            if (holder != null) {
                ServletWarmUp.run(holder.current());
                start(holder, inst, log, errors);
            }
        }
    }

    private static void startWatching(RuleSetHolder holder, Logger log) {
        if (!holder.current().watch() && holder.lastError() == null) {
            return;
        }
        Thread starter = new Thread(new WatchStarter(holder, log), "limiter-watch-start");
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * Starts the file watcher off the rules thread (a class, not a lambda: the first lambda of a shape spins
     * method-handle classes, and this one ran during the application's start-up).
     */
    private static final class WatchStarter implements Runnable {

        private final RuleSetHolder holder;
        private final Logger log;

        WatchStarter(RuleSetHolder holder, Logger log) {
            this.holder = holder;
            this.log = log;
        }

        @Override
        public void run() {
            try {
                holder.startWatching();
            } catch (Throwable t) {
                log.log(Level.WARNING, "limiter: cannot watch " + holder.file() + "; live reload is off", t);
            }
        }
    }
}
