package dev.limiter.agent.entry;

import dev.limiter.agent.outbound.OutboundClients;

/**
 * An HTTP client's entry point: its woven call methods go through the one client bridge delegate
 * ({@link OutboundClients}), which this entry point joins as a {@link OutboundClients.Kind}; the client's adapter
 * is made at its first call.
 */
public abstract class ClientEntryPoint extends EntryPoint implements OutboundClients.Kind {

    /** The bootstrap bridge every client's woven call methods call. */
    protected static final String BRIDGE = "dev/limiter/bootstrap/ClientBridge";

    protected ClientEntryPoint(EntryTarget target) {
        super(target);
    }

    @Override
    public final void install(EntryWiring wiring) {
        wiring.clients().add(this);
    }

    /**
     * True if {@code type} is the class named {@code binaryName} or extends it, by name: the agent's loader cannot
     * see the client library.
     */
    protected static boolean extendsClass(Class<?> type, String binaryName) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (binaryName.equals(c.getName())) {
                return true;
            }
        }
        return false;
    }
}
