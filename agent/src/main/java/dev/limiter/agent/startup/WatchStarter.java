package dev.limiter.agent.startup;

import dev.limiter.agent.threads.DaemonThreads;
import dev.limiter.rules.reload.RuleSetHolder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts the rules file watcher on a daemon thread of its own, so neither premain nor the rules thread does any
 * file-system watching itself (a class, not a lambda: the first lambda of a shape spins method-handle classes,
 * and this runs during the application's start-up).
 */
final class WatchStarter implements Runnable {

    private final RuleSetHolder holder;
    private final Logger log;

    private WatchStarter(RuleSetHolder holder, Logger log) {
        this.holder = holder;
        this.log = log;
    }

    /** Watches the file if the rules ask for it, or if they are invalid (so a fix is picked up). */
    static void start(RuleSetHolder holder, Logger log) {
        if (!holder.current().watch() && holder.lastError() == null) {
            return;
        }
        DaemonThreads.start(new WatchStarter(holder, log), "limiter-watch-start");
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
