package dev.limiter.agent.weave;

import dev.limiter.agent.method.LimitDeclarations;
import dev.limiter.agent.method.MethodTransformer;
import dev.limiter.rules.RuleSet;
import java.security.ProtectionDomain;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

/**
 * Rewrites the class file of one class that a {@code method:} or {@code jaxrs:} rule names, or that carries
 * {@code @Limit}: the only place Byte
 * Buddy runs. If the class is also a servlet, filter or exception mapper, its entry points are woven first by
 * {@link EntryPointWeaver}, exactly as for a class no rule names, so each target has one advice.
 *
 * <p>The class is decorated, not rebased or redefined: Byte Buddy's advice is inlined into existing method
 * bodies through an ASM visitor and nothing else changes (no member added or removed, no type initialiser, the
 * implementation context disabled so that a change to the class format fails instead of happening), so the
 * JVM can retransform the class again after a reload or a late attach. Descriptions of the woven class and its
 * super types come from {@link TypePools}, never from loading a class.
 */
final class ClassWeaver {

    private final ByteBuddy byteBuddy = new ByteBuddy()
            .with(TypeValidation.DISABLED)
            .with(Implementation.Context.Disabled.Factory.INSTANCE);
    private final TypePools pools = new TypePools();
    private final MethodTransformer methods;

    ClassWeaver() {
        this.methods = new MethodTransformer();
    }

    /**
     * The woven class file of {@code binaryName}, a class some rule names.
     *
     * @param targets  the {@link WeaveTarget} bits the class implements (entry points woven with ASM first)
     * @param rules    the rules in force
     * @param declared the class's {@code @Limit} annotations, or null
     */
    byte[] weave(ClassLoader loader, String binaryName, byte[] classFile, ProtectionDomain domain, int targets,
            RuleSet rules, LimitDeclarations declared) {
        byte[] entryPoints = targets == 0 ? null : EntryPointWeaver.weave(classFile, targets);
        byte[] input = entryPoints == null ? classFile : entryPoints;
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(binaryName, input),
                ClassFileLocator.ForClassLoader.of(loader));
        TypePool pool = pools.forTransformation(loader, binaryName, locator);
        TypeDescription type = pool.describe(binaryName).resolve();
        DynamicType.Builder<?> builder = methods.transform(byteBuddy.decorate(type, locator), type, loader, rules,
                declared);
        return builder.make(pool).getBytes();
    }
}
