package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Adds the limiter's check around a reactive server entry point that takes (request, response), or the request
 * alone, and returns the publisher of the exchange's end (WebFlux's {@code HttpWebHandlerAdapter.handle}), written
 * with ASM alone like {@link ServletEntryAdvice}:
 *
 * <pre>
 *   Object ours;
 *   try { ours = ReactiveBridge.enter(request, response); } catch (Throwable t) { ours = null; }
 *   if (ours != null) return (Mono) ours;                  // the rejection the agent wrote
 *   try { body, where every return r becomes return (Mono) ReactiveBridge.exit(r) }
 *   catch (any t) { ReactiveBridge.failed(); throw t; }
 * </pre>
 *
 * grpc-java's {@code startCall(ServerCall, Metadata)} has the same shape (the call and its headers in, the listener
 * of the call's end out) and gets the same code calling {@code GrpcBridge} instead ({@link #GRPC_BRIDGE}). A method
 * of the request alone (Micronaut's {@code RequestLifecycle.normalFlow(HttpRequest)}, the flow of its response
 * out) gets it too, its bridge's {@code enter} taking that one argument.
 *
 * The returned publisher is only handed to the bridge as {@code Object} and cast back to the method's return
 * type, so this code names no framework type but that one, which the woven class sees anyway. As in
 * {@link ServletEntryAdvice}, the catch-all comes after the method's own handlers and leaves out the exit calls.
 */
final class ReactiveEntryAdvice extends ReturnedValueAdvice {

    static final String BRIDGE = "dev/limiter/bootstrap/ReactiveBridge";
    static final String GRPC_BRIDGE = "dev/limiter/bootstrap/GrpcBridge";

    /** How many arguments the method has, and so {@code enter} takes: one (the request) or two. */
    private final int entered;

    ReactiveEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames, String bridge) {
        // the enter call needs two stack slots, the catch-all one
        super(target, owner, descriptor, frames, bridge, 2);
        this.entered = Type.getArgumentTypes(descriptor).length == 1 ? 1 : 2;
    }

    @Override
    void enter() {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        if (entered == 2) {
            mv.visitVarInsn(Opcodes.ALOAD, 2);
        }
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "enter", entered == 2
                ? "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;" : "(Ljava/lang/Object;)Ljava/lang/Object;",
                false);
    }
}
