package dev.limiter.agent.quarkus;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.agent.http.RequestViews;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Quarkus REST (RESTEasy Reactive), any version with this class: {@code AbstractResteasyReactiveContext.run()}, which
 * runs a request's handler chain (the resource method included) on the event loop or, after a hand-off, on a worker
 * thread. Not a check: it makes the request context the thread's current request, so woven resource methods
 * ({@code jaxrs:} rules) read their HTTP keys from it ({@link RestContextView}).
 */
public final class QuarkusRestEntryPoint extends EntryPoint {

    public static final EntryTarget CONTEXT_RUN = EntryTarget.exactClass("resteasy-reactive",
            "org/jboss/resteasy/reactive/common/core/AbstractResteasyReactiveContext", "run", Opcodes.ACC_PUBLIC,
            AdviceShape.REQUEST_SCOPE, "()V", null);

    public QuarkusRestEntryPoint() {
        super(CONTEXT_RUN);
    }

    @Override
    public RequestViews.Lookup requestView(EntryWiring wiring) {
        return RestContextView.lookup(wiring.log());
    }
}
