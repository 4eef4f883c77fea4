package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.agent.outbound.OutboundGate;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * OkHttp 4: its one {@code Call} implementation, {@code okhttp3.internal.connection.RealCall}, whose
 * {@code execute()} and {@code enqueue(Callback)} every call of an {@code OkHttpClient} runs once (Retrofit's too).
 */
public final class OkHttpEntryPoint implements EntryPoint {

    private static final String CALL = "okhttp3/internal/connection/RealCall";
    private static final String BRIDGE = "dev/limiter/bootstrap/ClientBridge";

    /** {@code execute()} and {@code enqueue(Callback)}: the class declares one of each. */
    public static final EntryTarget CALLS = EntryTarget.exactClass("okhttp-call", CALL,
            new String[] {"execute", "enqueue"}, Opcodes.ACC_PUBLIC, AdviceShape.CLIENT_CALL, "(", BRIDGE);

    @Override
    public EntryTarget[] targets() {
        return new EntryTarget[] {CALLS};
    }

    @Override
    public void install(EntryWiring wiring) {
        wiring.clients().add(new OkHttpLimiter(new OutboundGate(wiring.holder(), wiring.log()), wiring.log()));
    }
}
