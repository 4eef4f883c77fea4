package dev.limiter.agent.startup;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.jfr.FlightEvents;
import dev.limiter.agent.jfr.FlightRecorderSupport;
import dev.limiter.agent.jmx.JmxStarter;
import dev.limiter.agent.jmx.StoreJmx;
import dev.limiter.agent.metrics.MetricsStarter;
import dev.limiter.agent.store.RedisLimiterFactory;
import dev.limiter.agent.weave.ClassNameCheck;
import dev.limiter.agent.weave.Reweaver;
import dev.limiter.redis.RedisStoreStats;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Start-up's phase 8, on one daemon thread ({@code limiter-after-start}) once start-up is done: the application's
 * first request has been served, or {@code limiter.jmx.delay} has passed, or at most 10 s after start if no request
 * comes ({@link JmxStarter#awaitStartupDone}). Then, in this order: reload logging and re-weaving, the class-name
 * check, JFR's listeners, the rules file watcher, the MBeans, the Prometheus endpoint.
 *
 * <p>Why after: none of it is on a request's path, and done at once it was ~95 classes, six threads and an
 * inotify watch competing with the application's start (and the whole of it in a JVM that never serves). Nothing
 * is lost by the wait: a reload can only come from the watcher or JMX, both started here, after the listeners; the
 * watcher compares the file with the one parsed at start, so an edit made meanwhile is reloaded at its first
 * check. A class, not a lambda: nothing to spin while the application starts.
 */
final class AfterStartup implements Runnable {

    private final RuleSetHolder holder;
    private final Instrumentation inst;
    private final RedisLimiterFactory store;
    private final String prometheus;
    private final String logger;
    private final Logger log;
    private final ThrottledLog errors;

    AfterStartup(RuleSetHolder holder, Instrumentation inst, RedisLimiterFactory store, String prometheus,
            String logger, Logger log, ThrottledLog errors) {
        this.holder = holder;
        this.inst = inst;
        this.store = store;
        this.prometheus = prometheus;
        this.logger = logger;
        this.log = log;
        this.errors = errors;
    }

    @Override
    public void run() {
        try {
            JmxStarter.awaitStartupDone(log);
        } catch (InterruptedException e) {
            return; // the JVM is stopping
        }
        try {
            holder.addListener(new ReloadLog(log));
            holder.addListener(new Reweaver(holder, inst, errors));
            ClassNameCheck.start(holder, inst, logger);
            if (FlightRecorderSupport.AVAILABLE) {
                holder.addListener(FlightEvents.reloads(holder));
                RedisStoreStats.failureListener(FlightEvents.storeFailures());
            }
        } catch (Throwable t) {
            log.log(Level.WARNING, "limiter: cannot follow reloads; the rules stay as loaded", t);
        }
        watch();
        StoreJmx.registerNow(store, log);
        JmxStarter.registerNow(holder, log);
        MetricsStarter.start(prometheus, holder, store, log);
    }

    /** Watches the file if the rules ask for it, or if they are invalid (so a fix is picked up). */
    private void watch() {
        if (!holder.current().watch() && holder.lastError() == null) {
            return;
        }
        try {
            holder.startWatching();
        } catch (Throwable t) {
            log.log(Level.WARNING, "limiter: cannot watch " + holder.file() + "; live reload is off", t);
        }
    }
}
