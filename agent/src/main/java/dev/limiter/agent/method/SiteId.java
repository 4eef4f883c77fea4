package dev.limiter.agent.method;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@link MethodAdvice} parameter that receives the woven method's site id, an int constant bound when
 * the method is woven ({@code Advice.withCustomMapping().bind}), so the inlined code needs no lookup to say
 * which method it guards.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface SiteId {
}
