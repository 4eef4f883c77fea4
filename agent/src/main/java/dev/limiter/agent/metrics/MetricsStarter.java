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
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Opens the Prometheus endpoint when asked ({@code prometheus=HOST:PORT} agent argument, which wins, or the rules
 * file's {@code metrics.prometheus.listen}): from a daemon thread, at the moment the MBeans register (after the
 * application's first request, at most 10 s, or {@code limiter.jmx.delay}), never in premain: binding a socket
 * starts NIO and a selector thread, which the application's start-up does not need to compete with.
 *
 * <p>The endpoint is opened once. A reload that changes {@code metrics.prometheus.listen} is logged as needing a
 * restart; a failure to bind is logged and the application runs on without the endpoint.
 */
public final class MetricsStarter {

    private MetricsStarter() {
    }

    /**
     * Starts the opening thread if an endpoint is asked for, and follows reloads to report a changed address.
     *
     * @param fromArgs the agent argument's {@code HOST:PORT}, or null
     * @return the thread, or null when no endpoint is asked for
     */
    public static Thread start(String fromArgs, RuleSetHolder holder, RedisLimiterFactory store, Logger log) {
        MetricsSpec fromFile = holder.current().metrics();
        String listen = fromArgs != null ? fromArgs : fromFile.prometheusListen();
        if (fromArgs != null && fromFile.prometheus() && !fromArgs.equals(fromFile.prometheusListen())) {
            log.info("limiter: the agent argument prometheus=" + fromArgs + " wins over the rules file's"
                    + " metrics.prometheus.listen " + fromFile.prometheusListen());
        }
        holder.addListener(new ListenChange(listen, fromArgs != null, log));
        if (listen == null) {
            return null;
        }
        return DaemonThreads.start(new Opening(listen, new LimiterMetrics(holder, store), log),
                "limiter-metrics-start");
    }

    /** Opens the endpoint when start-up is over (a class, not a lambda: nothing to spin while the app starts). */
    private static final class Opening implements Runnable {

        private final String listen;
        private final LimiterMetrics metrics;
        private final Logger log;

        Opening(String listen, LimiterMetrics metrics, Logger log) {
            this.listen = listen;
            this.metrics = metrics;
            this.log = log;
        }

        @Override
        public void run() {
            try {
                JmxStarter.awaitStartupDone(log);
                PrometheusEndpoint endpoint = PrometheusEndpoint.open(MetricsSpec.host(listen),
                        MetricsSpec.port(listen), metrics);
                InetSocketAddress bound = endpoint.address();
                String host = bound.getAddress().getHostAddress();
                log.info("limiter: Prometheus metrics on http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
                        + ":" + bound.getPort() + PrometheusEndpoint.PATH);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                log.log(Level.WARNING, "limiter: cannot open the Prometheus endpoint on " + listen + " (" + t
                        + "); the application runs on without it", (Throwable) null);
            }
        }
    }

    /** Tells the operator that a changed {@code metrics.prometheus.listen} takes a restart. */
    private static final class ListenChange implements ReloadListener {

        private final String inUse;
        private final boolean fromArgs;
        private final Logger log;
        private String reported;

        ListenChange(String inUse, boolean fromArgs, Logger log) {
            this.inUse = inUse;
            this.fromArgs = fromArgs;
            this.log = log;
            this.reported = inUse;
        }

        @Override
        public void reloaded(RuleSet previous, RuleSet current) {
            String asked = current.metrics().prometheusListen();
            if (fromArgs || Objects.equals(asked, inUse) || Objects.equals(asked, reported)) {
                reported = asked;
                return;
            }
            reported = asked;
            log.warning("limiter: metrics.prometheus.listen is now " + (asked == null ? "absent" : asked)
                    + "; the Prometheus endpoint " + (inUse == null ? "is not open" : "stays on " + inUse)
                    + " until the JVM restarts");
        }
    }
}
