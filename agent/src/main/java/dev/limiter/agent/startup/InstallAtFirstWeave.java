package dev.limiter.agent.startup;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryWiring;

/**
 * An entry point's installation, run by the transformer when it first weaves one of the entry point's classes
 * ({@link dev.limiter.agent.weave.FirstWeaves}), on the application's thread that loads it: a failure is logged
 * and that stack runs unlimited; the class itself is still woven, and the application goes on.
 */
final class InstallAtFirstWeave implements Runnable {

    private final EntryPoint entry;
    private final EntryWiring wiring;
    private final ThrottledLog log;

    InstallAtFirstWeave(EntryPoint entry, EntryWiring wiring, ThrottledLog log) {
        this.entry = entry;
        this.wiring = wiring;
        this.log = log;
    }

    @Override
    public void run() {
        try {
            entry.install(wiring);
        } catch (Throwable t) {
            log.warn("limiter: cannot install " + entry.getClass().getSimpleName() + "; its calls run unlimited", t);
        }
    }
}
