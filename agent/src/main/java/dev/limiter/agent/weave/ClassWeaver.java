package dev.limiter.agent.weave;

import dev.limiter.agent.jaxrs.ExceptionMapperInstrumentation;
import dev.limiter.agent.method.MethodTransformer;
import dev.limiter.agent.servlet.ServletInstrumentation;
import dev.limiter.rules.reload.RuleSetHolder;
import java.security.ProtectionDomain;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

/**
 * Rewrites the class file of one class that a {@code method:} or {@code jaxrs:} rule names: the only place Byte
 * Buddy runs (servlets, filters and mappers that no rule names are woven by {@link EntryPointWeaver}).
 *
 * <p>The class is decorated, not rebased or redefined: Byte Buddy's advice is inlined into existing method
 * bodies through an ASM visitor and nothing else changes (no member added or removed, no type initialiser, the
 * implementation context disabled so that a change to the class format fails instead of happening), so the
 * JVM can retransform the class again after a reload or a late attach. The advice classes are parsed once,
 * from the agent's own loader, and reused for every class; descriptions of the woven class and its super types
 * come from {@link TypePools}, never from loading a class.
 */
final class ClassWeaver {

    private final ByteBuddy byteBuddy = new ByteBuddy()
            .with(TypeValidation.DISABLED)
            .with(Implementation.Context.Disabled.Factory.INSTANCE);
    private final TypePools pools = new TypePools();
    private final Advice servletAdvice;
    private final Advice mapperAdvice;
    private final MethodTransformer methods;

    /** Weaves servlets and filters, and (with a non-null {@code holder}) mappers and the methods rules name. */
    ClassWeaver(ClassLoader agentLoader, RuleSetHolder holder) {
        ClassFileLocator agentClasses = ClassFileLocator.ForClassLoader.of(agentLoader);
        TypePool agentTypes = TypePool.Default.of(agentClasses);
        this.servletAdvice = Advice.to(agentTypes.describe(ServletInstrumentation.ADVICE).resolve(), agentClasses);
        this.mapperAdvice = holder == null ? null
                : Advice.to(agentTypes.describe(ExceptionMapperInstrumentation.ADVICE).resolve(), agentClasses);
        this.methods = holder == null ? null : new MethodTransformer(holder);
    }

    /**
     * The woven class file of {@code binaryName}.
     *
     * @param targets      the {@link WeaveTarget} bits the class implements (servlet and mapper advice)
     * @param namedByRules true if a {@code method:} or {@code jaxrs:} rule names the class
     */
    byte[] weave(ClassLoader loader, String binaryName, byte[] classFile, ProtectionDomain domain, int targets,
            boolean namedByRules) {
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(binaryName, classFile),
                ClassFileLocator.ForClassLoader.of(loader));
        TypePool pool = pools.forTransformation(loader, binaryName, locator);
        TypeDescription type = pool.describe(binaryName).resolve();
        DynamicType.Builder<?> builder = byteBuddy.decorate(type, locator);
        if ((targets & WeaveTarget.SERVLET_JAVAX) != 0) {
            builder = builder.visit(servletAdvice.on(ServletInstrumentation.methods(false)));
        }
        if ((targets & WeaveTarget.SERVLET_JAKARTA) != 0) {
            builder = builder.visit(servletAdvice.on(ServletInstrumentation.methods(true)));
        }
        if (methods != null) {
            if ((targets & WeaveTarget.MAPPERS) != 0) {
                builder = builder.visit(mapperAdvice.on(ExceptionMapperInstrumentation.toResponse()));
            }
            if (namedByRules) {
                builder = methods.transform(builder, type, loader, null, domain);
            }
        }
        return builder.make(pool).getBytes();
    }
}
