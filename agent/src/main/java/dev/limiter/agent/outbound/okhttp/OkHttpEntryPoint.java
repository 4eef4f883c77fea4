package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.ClientEntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * OkHttp 4 and 5: its one {@code Call} implementation, {@code okhttp3.internal.connection.RealCall}, whose
 * {@code execute()} and {@code enqueue(Callback)} every call of an {@code OkHttpClient} runs once (Retrofit's too).
 */
public final class OkHttpEntryPoint extends ClientEntryPoint {

    private static final String CALL = "okhttp3/internal/connection/RealCall";

    /** {@code execute()} and {@code enqueue(Callback)}: the class declares one of each. */
    public static final EntryTarget CALLS = EntryTarget.exactClass("okhttp-call", CALL,
            new String[] {"execute", "enqueue"}, Opcodes.ACC_PUBLIC, AdviceShape.CLIENT_CALL, "(", BRIDGE);

    public OkHttpEntryPoint() {
        super(CALLS);
    }

    @Override
    protected OutboundClients.Adapter adapter(OutboundGate gate) {
        return new OkHttpLimiter(gate);
    }
}
