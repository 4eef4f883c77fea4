package dev.limiter.agent.micronaut;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.bootstrap.FlowBridge;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Micronaut 4.3+ on its Netty server: {@code RequestLifecycle.normalFlow(HttpRequest)}, which the Netty handler
 * calls once per decoded request, before the pre-matching filters, the route lookup and every other filter, and
 * which returns the flow of the response Micronaut then writes. The one declaration in the base class serves the
 * Netty lifecycle; another server's lifecycle (micronaut-servlet) reaches it too and is left alone there.
 */
public final class MicronautEntryPoint extends EntryPoint {

    public static final EntryTarget NORMAL_FLOW = EntryTarget.exactClass("micronaut",
            "io/micronaut/http/server/RequestLifecycle", "normalFlow", Opcodes.ACC_PROTECTED, AdviceShape.PUBLISHER,
            "(Lio/micronaut/http/HttpRequest;)Lio/micronaut/core/execution/ExecutionFlow;",
            "dev/limiter/bootstrap/FlowBridge");

    public MicronautEntryPoint() {
        super(NORMAL_FLOW);
    }

    @Override
    public void install(EntryWiring wiring) {
        FlowBridge.install(new MicronautLimiter(wiring.http()));
    }
}
