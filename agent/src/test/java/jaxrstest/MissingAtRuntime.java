package jaxrstest;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** Stands for an optional library's annotation (Swagger, metrics) whose class is absent at run time. */
@Retention(RetentionPolicy.RUNTIME)
public @interface MissingAtRuntime {
}
