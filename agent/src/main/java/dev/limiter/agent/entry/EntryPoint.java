package dev.limiter.agent.entry;

import dev.limiter.agent.http.RequestViews;

/**
 * One kind of entry the agent checks (a server, a framework's resource methods), as its own package declares it:
 * the library methods woven ({@link #targets}), how its delegate goes into the bootstrap bridge at start-up
 * ({@link #install}), and, if woven methods can run inside its requests, how their HTTP keys find those requests
 * ({@link #requestView}). The registered list is {@code registry.EntryPoints}: adding an entry point is a package
 * and one line there.
 */
public interface EntryPoint {

    /** The library methods woven for this entry point. */
    EntryTarget[] targets();

    /**
     * Puts this entry point's delegate into its bootstrap bridge: its entries are checked from now on. Nothing to
     * do for entry points the start-up installs through its gate (servlets, woven methods).
     */
    void install(EntryWiring wiring);

    /** How woven methods read the HTTP keys of this entry point's requests; null if they never run in one. */
    default RequestViews.Lookup requestView(EntryWiring wiring) {
        return null;
    }
}
