package dev.limiter.agent.jaxrs;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * JAX-RS exception mappers, javax (1-2.x) and jakarta (3-4): {@code toResponse} of every {@code ExceptionMapper},
 * the typed method only (its erased bridge calls it, and weaving both would answer twice), so no application
 * mapper turns the agent's 429 into something else. Resource methods themselves are woven as method sites of
 * {@code jaxrs:} rules, not here.
 */
public final class JaxrsEntryPoint extends EntryPoint {

    public static final EntryTarget JAVAX = target("javax");
    public static final EntryTarget JAKARTA = target("jakarta");

    private static EntryTarget target(String namespace) {
        String type = namespace + "/ws/rs/ext/ExceptionMapper";
        return EntryTarget.implementations("mapper-" + namespace, new String[] {type}, type + ".class",
                new String[] {"toResponse"}, 0, Opcodes.ACC_STATIC | Opcodes.ACC_BRIDGE, AdviceShape.MAPPER, "(L");
    }

    public JaxrsEntryPoint() {
        super(JAVAX, JAKARTA);
    }
}
