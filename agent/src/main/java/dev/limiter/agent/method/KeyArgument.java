package dev.limiter.agent.method;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@link MethodAdvice} parameter that receives the one argument a site keys on ({@code arg:N}, or the
 * {@code @PathParam} argument of a JAX-RS resource method), boxed if primitive; bound at weave time to that
 * argument, or to a null constant when no rule of the site keys on an argument.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface KeyArgument {
}
