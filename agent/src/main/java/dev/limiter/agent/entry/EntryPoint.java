package dev.limiter.agent.entry;

import dev.limiter.agent.http.RequestViews;

/**
 * One kind of entry the agent checks (a server, a framework's resource methods, an HTTP client), as its own package
 * declares it: the library methods woven ({@link #targets}, given to the constructor), how its delegate goes into
 * the bootstrap bridge at start-up ({@link #install}), and, if woven methods can run inside its requests, how their
 * HTTP keys find those requests ({@link #requestView}). The registered list is {@code registry.EntryPoints}: adding
 * an entry point is a package and one line there.
 */
public abstract class EntryPoint {

    private final EntryTarget[] targets;

    protected EntryPoint(EntryTarget... targets) {
        this.targets = targets;
    }

    /** The library methods woven for this entry point. */
    public final EntryTarget[] targets() {
        return targets.clone();
    }

    /**
     * Puts this entry point's delegate into its bootstrap bridge: its entries are checked from now on. Nothing to
     * do (the default) for entry points the start-up installs through its gate (servlets, woven methods) or that
     * only make a request current for woven methods.
     */
    public void install(EntryWiring wiring) {
    }

    /**
     * True if {@link #install} may wait until the first class of this entry point's targets is woven: every target
     * is one named class ({@link EntryTarget#exact}), so no call reaches the delegate before that class is woven,
     * and a JVM without the stack never loads its limiter.
     */
    public boolean installsAtFirstWeave() {
        for (EntryTarget target : targets) {
            if (!target.exact()) {
                return false;
            }
        }
        return true;
    }

    /** How woven methods read the HTTP keys of this entry point's requests; null if they never run in one. */
    public RequestViews.Lookup requestView(EntryWiring wiring) {
        return null;
    }
}
