package dev.limiter.agent.webflux;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.bootstrap.ReactiveBridge;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Spring WebFlux 6-7 (Boot 3-4), any server: {@code HttpWebHandlerAdapter.handle(ServerHttpRequest,
 * ServerHttpResponse)}, that one class only, so a WebFlux application's many {@code handle} methods cost nothing.
 */
public final class WebfluxEntryPoint extends EntryPoint {

    public static final EntryTarget HANDLER = EntryTarget.exactClass("webflux",
            "org/springframework/web/server/adapter/HttpWebHandlerAdapter", "handle", Opcodes.ACC_PUBLIC,
            AdviceShape.PUBLISHER, "(Lorg/springframework/http/server/reactive/ServerHttpRequest;"
                    + "Lorg/springframework/http/server/reactive/ServerHttpResponse;)Lreactor/core/publisher/Mono;",
            "dev/limiter/bootstrap/ReactiveBridge");

    public WebfluxEntryPoint() {
        super(HANDLER);
    }

    @Override
    public void install(EntryWiring wiring) {
        ReactiveBridge.install(new WebfluxLimiter(wiring.http()));
    }
}
