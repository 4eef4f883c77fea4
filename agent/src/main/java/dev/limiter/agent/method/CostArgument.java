package dev.limiter.agent.method;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@link MethodAdvice} parameter that receives a call's cost for {@code cost: arg:N}: the argument's
 * value as a {@code long} (an integer widened, an array's length, a collection's size), computed by the woven
 * code without boxing ({@link CostArgumentMapping}); bound to the constant 1 when no rule of the site reads its
 * cost from an argument.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface CostArgument {
}
