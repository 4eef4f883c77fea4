package dev.limiter.agent.grpc;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * grpc-java (any transport): {@code startCall(ServerCall, Metadata)} of the stub's two handlers, unary and
 * server-streaming, client-streaming and bidirectional: every generated or {@code ServerCalls}-bound method goes
 * through one of them, once per call and after the server's interceptors.
 */
public final class GrpcEntryPoint extends EntryPoint {

    private static final String START_CALL = "(Lio/grpc/ServerCall;Lio/grpc/Metadata;)Lio/grpc/ServerCall$Listener;";
    private static final String BRIDGE = "dev/limiter/bootstrap/GrpcBridge";

    public static final EntryTarget UNARY = EntryTarget.exactClass("grpc-unary",
            "io/grpc/stub/ServerCalls$UnaryServerCallHandler", "startCall", Opcodes.ACC_PUBLIC, AdviceShape.PUBLISHER,
            START_CALL, BRIDGE);
    public static final EntryTarget STREAMING = EntryTarget.exactClass("grpc-streaming",
            "io/grpc/stub/ServerCalls$StreamingServerCallHandler", "startCall", Opcodes.ACC_PUBLIC,
            AdviceShape.PUBLISHER, START_CALL, BRIDGE);

    public GrpcEntryPoint() {
        super(UNARY, STREAMING);
    }

    @Override
    public void install(EntryWiring wiring) {
        GrpcLimiter.install(wiring.holder(), wiring.log());
    }
}
