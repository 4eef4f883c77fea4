package dev.limiter.agent.metrics;

import dev.limiter.agent.jmx.JmxStarter;
import dev.limiter.agent.store.RedisLimiterFactory;
import dev.limiter.agent.threads.DaemonThreads;
import dev.limiter.rules.MetricsSpec;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.ReloadListener;
import dev.limiter.rules.reload.RuleSetHolder;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Opens the Prometheus endpoint when asked ({@code prometheus=HOST:PORT} agent argument, which wins, or the rules
 * file's {@code metrics.prometheus.listen}): from a daemon thread, at the moment the MBeans register (after the
 * application's first request, at most 10 s, or {@code limiter.jmx.delay}), never in premain: binding a socket
 * starts NIO and a selector thread, which the application's start-up does not need to compete with.
 *
 * <p>An endpoint, once open, stays where it is: a reload that changes {@code metrics.prometheus.listen} is logged
 * as needing a restart. While none is open (the file asked for none, was invalid at start-up, or its address could
 * not be bound) a reload that asks for one opens it. A failure to bind is logged and the application runs on
 * without the endpoint.
 */
public final class MetricsStarter {

    private MetricsStarter() {
    }

    /**
     * Starts the opening thread if an endpoint is asked for, and follows reloads: one that asks for an endpoint
     * while none is open opens it; one that changes the address of the open one is reported.
     *
     * @param fromArgs the agent argument's {@code HOST:PORT}, or null
     * @return the opening thread, or null when no endpoint is asked for at start
     */
    public static Thread start(String fromArgs, RuleSetHolder holder, RedisLimiterFactory store, Logger log) {
        MetricsSpec fromFile = holder.current().metrics();
        String listen = fromArgs != null ? fromArgs : fromFile.prometheusListen();
        if (fromArgs != null && fromFile.prometheus() && !fromArgs.equals(fromFile.prometheusListen())) {
            log.info("limiter: the agent argument prometheus=" + fromArgs + " wins over the rules file's"
                    + " metrics.prometheus.listen " + fromFile.prometheusListen());
        }
        Endpoint endpoint = new Endpoint(holder, store, log, fromArgs != null);
        holder.addListener(endpoint);
        return listen == null ? null : endpoint.open(listen);
    }

    /** The one endpoint of this JVM: opened once, where the agent argument or the rules file asks. */
    private static final class Endpoint implements ReloadListener {

        private final RuleSetHolder holder;
        private final RedisLimiterFactory store;
        private final Logger log;
        private final boolean fromArgs;
        /** The address open or being opened, or null: set once per opening, cleared if the bind fails. */
        private final AtomicReference<String> target = new AtomicReference<>();
        /** The address last asked for: a changed address is reported once. */
        private volatile String reported;

        Endpoint(RuleSetHolder holder, RedisLimiterFactory store, Logger log, boolean fromArgs) {
            this.holder = holder;
            this.store = store;
            this.log = log;
            this.fromArgs = fromArgs;
        }

        /** Opens {@code listen} on a thread of its own unless one is open or being opened; returns the thread. */
        Thread open(String listen) {
            if (!target.compareAndSet(null, listen)) {
                return null;
            }
            reported = listen;
            return DaemonThreads.start(new Opening(listen), "limiter-metrics-start");
        }

        @Override
        public void reloaded(RuleSet previous, RuleSet current) {
            String asked = current.metrics().prometheusListen();
            String inUse = target.get();
            if (fromArgs || asked == null && inUse == null) {
                return;
            }
            if (inUse == null) {
                open(asked); // nothing open: the file now asks for an endpoint, open it
                return;
            }
            if (Objects.equals(asked, inUse) || Objects.equals(asked, reported)) {
                reported = asked;
                return;
            }
            reported = asked;
            log.warning("limiter: metrics.prometheus.listen is now " + (asked == null ? "absent" : asked)
                    + "; the Prometheus endpoint stays on " + inUse + " until the JVM restarts");
        }

        /** Binds {@code listen} once start-up is over (a class, not a lambda: nothing to spin at start-up). */
        private final class Opening implements Runnable {

            private final String listen;

            Opening(String listen) {
                this.listen = listen;
            }

            @Override
            public void run() {
                try {
                    JmxStarter.awaitStartupDone(log);
                    PrometheusEndpoint opened = PrometheusEndpoint.open(MetricsSpec.host(listen),
                            MetricsSpec.port(listen), new LimiterMetrics(holder, store));
                    InetSocketAddress bound = opened.address();
                    String host = bound.getAddress().getHostAddress();
                    log.info("limiter: Prometheus metrics on http://" + (host.indexOf(':') >= 0 ? "[" + host + "]"
                            : host) + ":" + bound.getPort() + PrometheusEndpoint.PATH);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    target.compareAndSet(listen, null); // not open: a later reload may ask again
                    log.log(Level.WARNING, "limiter: cannot open the Prometheus endpoint on " + listen + " (" + t
                            + "); the application runs on without it", (Throwable) null);
                }
            }
        }
    }
}
