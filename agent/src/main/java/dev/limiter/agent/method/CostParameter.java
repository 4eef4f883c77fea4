package dev.limiter.agent.method;

import dev.limiter.agent.classfile.ClassShapes;
import java.util.Collection;
import net.bytebuddy.jar.asm.Type;

/**
 * Which parameter types can carry a call's cost ({@code cost: arg:N}): an {@code int}, {@code short},
 * {@code byte} or {@code long} (read as a {@code long}), an array or a {@link Collection} (its length or size).
 * Decided here so the planner never picks an argument the woven code could not read.
 */
final class CostParameter {

    private CostParameter() {
    }

    /** True if a parameter of {@code type} can give a call's cost; class types are judged through {@code shapes}. */
    static boolean carriesCost(Type type, ClassShapes shapes) {
        switch (type.getSort()) {
            case Type.INT: case Type.LONG: case Type.SHORT: case Type.BYTE: case Type.ARRAY:
                return true;
            case Type.OBJECT:
                return shapes.isSubtypeOf(type.getClassName(), Collection.class.getName());
            default:
                return false;
        }
    }

    /** The cost types, for messages. */
    static String costTypes() {
        return "an int, long, short or byte, an array or a java.util.Collection";
    }
}
