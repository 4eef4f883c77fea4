package dev.limiter.agent;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import dev.limiter.agent.servlet.ServletInstrumentation;
import java.lang.instrument.Instrumentation;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;

/**
 * Builds and installs the Byte Buddy transformer, configured for a cheap start-up and a harmless failure mode.
 *
 * <p>Cheap: classes are ignored by name first (JDK, Byte Buddy, our own packages: named one by one, because
 * applications, our demo and integration-test apps among them, may live under {@code dev.limiter.}), each instrumentation checks that a
 * class loader has the library before any super-type walk, and type descriptions come only from a cached type
 * pool ({@code POOL_ONLY}), so matching never loads a class or runs application code. Harmless:
 * {@code disableClassFormatChanges()} + {@code RETRANSFORMATION} only rewrite method bodies (classes already
 * loaded, e.g. with a late attach, can be retransformed), and a failed transformation is logged (throttled)
 * and leaves the class unchanged.
 */
final class Weaver {

    private Weaver() {
    }

    static ResettableClassFileTransformer install(Instrumentation inst, ThrottledLog log) {
        AgentBuilder builder = new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
                .with(new WeakTypePoolCache())
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new FailureListener(log))
                .ignore(nameStartsWith("net.bytebuddy.")
                        .or(nameStartsWith("java."))
                        .or(nameStartsWith("javax.management."))
                        .or(nameStartsWith("jdk."))
                        .or(nameStartsWith("sun."))
                        .or(nameStartsWith("com.sun."))
                        .or(nameStartsWith("dev.limiter.agent."))
                        .or(nameStartsWith("dev.limiter.bootstrap."))
                        .or(nameStartsWith("dev.limiter.api."))
                        .or(nameStartsWith("dev.limiter.core."))
                        .or(nameStartsWith("dev.limiter.rules."))
                        .or(nameStartsWith("dev.limiter.shaded.")));
        builder = ServletInstrumentation.apply(builder, Weaver.class.getClassLoader());
        return builder.installOn(inst);
    }

    /** Logs failed transformations; everything else Byte Buddy reports is ignored. */
    private static final class FailureListener extends AgentBuilder.Listener.Adapter {

        private final ThrottledLog log;

        FailureListener(ThrottledLog log) {
            this.log = log;
        }

        @Override
        public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
                Throwable throwable) {
            log.warn("limiter: could not instrument " + typeName + "; it runs unlimited", throwable);
        }

        @Override
        public void onTransformation(TypeDescription typeDescription, ClassLoader classLoader, JavaModule module,
                boolean loaded, DynamicType dynamicType) {
            Diagnostics.woven(typeDescription.getName());
        }
    }
}
