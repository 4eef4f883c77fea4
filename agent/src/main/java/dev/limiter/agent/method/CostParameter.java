package dev.limiter.agent.method;

import java.util.Collection;
import net.bytebuddy.description.type.TypeDefinition;

/**
 * Which parameter types can carry a call's cost ({@code cost: arg:N}): an {@code int}, {@code short},
 * {@code byte} or {@code long} (read as a {@code long}), an array or a {@link Collection} (its length or size).
 * Decided here so the planner never picks an argument the woven code could not read.
 */
final class CostParameter {

    private CostParameter() {
    }

    /** True if a parameter of {@code type} can give a call's cost. */
    static boolean carriesCost(TypeDefinition type) {
        if (type.isPrimitive()) {
            return type.represents(int.class) || type.represents(long.class) || type.represents(short.class)
                    || type.represents(byte.class);
        }
        try {
            return type.isArray() || type.asErasure().isAssignableTo(Collection.class);
        } catch (RuntimeException e) {
            return false; // a super type the pool cannot resolve: not known to be a collection
        }
    }

    /** The cost types, for messages. */
    static String costTypes() {
        return "an int, long, short or byte, an array or a java.util.Collection";
    }
}
