package dev.limiter.it.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test class needs forked servers on Java {@link #value()} or later ({@code limiter.test.jvm}): on an older
 * test JVM its tests are skipped with the reason before any {@code @BeforeAll} starts a server. For stacks that
 * need a newer Java than the agent's floor (Helidon 4: 21). Why a JUnit condition ({@link TestJvm}) and not an
 * assumption: an assumption failing in {@code @BeforeAll} aborts the class, which Surefire then reports as no
 * test at all, its reason nowhere; a disabled class is reported as its tests skipped, each with the reason.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(TestJvm.class)
public @interface TestJvmAtLeast {

    /** The lowest Java feature release the class's servers run on. */
    int value();

    /** What needs it, for the skip message ({@code "Helidon 4"}). */
    String what();
}
