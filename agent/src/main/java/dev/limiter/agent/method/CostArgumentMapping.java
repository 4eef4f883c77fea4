package dev.limiter.agent.method;

import dev.limiter.bootstrap.LimiterBridge;
import java.util.Collection;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.StackManipulation;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.implementation.bytecode.assign.primitive.PrimitiveWideningDelegate;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.implementation.bytecode.member.MethodVariableAccess;

/**
 * Binds {@link CostArgument} to the woven method's cost argument, read as a {@code long} in the method's own
 * code: an {@code int}, {@code short} or {@code byte} is widened, a {@code long} taken as is, an array or a
 * {@link Collection} handed to {@link LimiterBridge#sizeOf} (its length or size). No boxing, no allocation.
 *
 * <p>Which parameter types can carry a cost is decided here ({@link #carriesCost}), so the planner never picks an
 * argument this mapping could not read.
 */
final class CostArgumentMapping implements Advice.OffsetMapping {

    private static final MethodDescription.InDefinedShape SIZE_OF = sizeOf();

    private final ParameterDescription parameter;

    CostArgumentMapping(ParameterDescription parameter) {
        this.parameter = parameter;
    }

    /** True if a parameter of {@code type} can give a call's cost: an integer, an array or a collection. */
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

    @Override
    public Target resolve(TypeDescription instrumentedType, MethodDescription instrumentedMethod, Assigner assigner,
            Advice.ArgumentHandler argumentHandler, Sort sort) {
        TypeDescription type = parameter.getType().asErasure();
        StackManipulation load = MethodVariableAccess.of(type)
                .loadFrom(argumentHandler.argument(parameter.getOffset()));
        StackManipulation toLong;
        if (type.represents(long.class)) {
            toLong = StackManipulation.Trivial.INSTANCE;
        } else if (type.isPrimitive()) {
            toLong = PrimitiveWideningDelegate.forPrimitive(type).widenTo(TypeDescription.ForLoadedType.of(long.class));
        } else {
            toLong = MethodInvocation.invoke(SIZE_OF);
        }
        return new Target.ForStackManipulation(new StackManipulation.Compound(load, toLong));
    }

    private static MethodDescription.InDefinedShape sizeOf() {
        try {
            return new MethodDescription.ForLoadedMethod(LimiterBridge.class.getMethod("sizeOf", Object.class));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("the bootstrap bridge has no sizeOf(Object)", e);
        }
    }
}
