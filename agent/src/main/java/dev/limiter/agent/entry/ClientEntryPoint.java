package dev.limiter.agent.entry;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * An HTTP client's entry point: its woven call methods go through the one client bridge delegate
 * ({@link OutboundClients}), which this entry point joins as a {@link OutboundClients.Kind}; the client's adapter
 * is made at its first call.
 */
public abstract class ClientEntryPoint extends EntryPoint implements OutboundClients.Kind {

    /** The bootstrap bridge every client's woven call methods call. */
    protected static final String BRIDGE = "dev/limiter/bootstrap/ClientBridge";

    /** The class the client's calls run on, binary name: by default the one class the first target weaves. */
    private final String clientClass;

    protected ClientEntryPoint(EntryTarget... targets) {
        super(targets);
        this.clientClass = targets[0].types[0].replace('/', '.');
    }

    /** Clients of the class the target weaves, by name (the agent's loader cannot see the library). */
    @Override
    public boolean adapts(Class<?> type) {
        return clientClass.equals(type.getName());
    }

    @Override
    public final OutboundClients.Adapter adapter(RuleSetHolder holder, ThrottledLog log) {
        return adapter(new OutboundGate(holder, log));
    }

    /** This client's adapter over {@code gate}. */
    protected abstract OutboundClients.Adapter adapter(OutboundGate gate);

    @Override
    public final void install(EntryWiring wiring) {
        wiring.clients().add(this);
    }

    /** Every client joins the one registry, which goes into the bridge once all have joined; its adapter is lazy. */
    @Override
    public final boolean installsAtFirstWeave() {
        return false;
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
