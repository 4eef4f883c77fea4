package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * The advice writer of each {@link dev.limiter.agent.entry.AdviceShape}: the one place that turns a shape into
 * its bytecode pattern. A new entry point whose method fits an existing shape changes nothing here; a new shape
 * (a new kind of method to enter) is a new writer and one case.
 */
final class Advices {

    private Advices() {
    }

    /**
     * The writer weaving {@code target}'s advice into {@code method} of class {@code owner}; {@code maxLocals}: the
     * method's own local slots, read first for a shape that {@link dev.limiter.agent.entry.AdviceShape#addsLocal
     * adds a local} (else unused).
     */
    static MethodVisitor weave(WeaveTarget target, MethodVisitor method, String owner, String descriptor,
            boolean frames, int maxLocals) {
        return switch (target.shape) {
            case SERVLET -> new ServletEntryAdvice(method, owner, descriptor, frames);
            case MAPPER -> new MapperEntryAdvice(method, owner, descriptor, frames);
            case PUBLISHER -> new ReactiveEntryAdvice(method, owner, descriptor, frames, target.target.bridge);
            case ROUTING -> new RoutingEntryAdvice(method, owner, descriptor, frames);
            case REQUEST_SCOPE -> new RequestScopeAdvice(method, owner, descriptor, frames);
            case HANDLER -> new HandlerEntryAdvice(method, owner, descriptor, frames, maxLocals,
                    target.target.bridge);
            case CLIENT_CALL -> new ClientCallAdvice(method, owner, descriptor, frames, target.target.bridge);
        };
    }
}
