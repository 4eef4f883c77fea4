package dev.limiter.agent.method;

import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.named;

import dev.limiter.rules.RuleSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.implementation.bytecode.constant.LongConstant;
import net.bytebuddy.implementation.bytecode.constant.NullConstant;

/**
 * Weaves {@link MethodAdvice} into the methods {@link SitePlanner} picks, each with its own site id, key
 * argument and cost argument bound when it is woven.
 *
 * <p>The plan is made from the rules in force when the class is (re)transformed, read from the holder here,
 * so a retransformation after a reload picks up the new rules. Every woven method is registered in
 * {@link WovenSites} before its code can run, and the class's coverage is recorded for later reloads.
 */
public final class MethodTransformer {

    private static final String ADVICE = MethodAdvice.class.getName();
    private static final TypeDescription ADVICE_TYPE = TypeDescription.ForLoadedType.of(MethodAdvice.class);

    private final ClassFileLocator adviceLocator;

    /** Weaves the methods the rules in force at each transformation name, and the annotated ones. */
    public MethodTransformer() {
        byte[] bytes;
        try {
            bytes = ClassFileLocator.ForClassLoader.read(MethodAdvice.class);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot read " + ADVICE, e);
        }
        this.adviceLocator = ClassFileLocator.Simple.of(ADVICE, bytes);
    }

    /**
     * Adds the advice of every site {@code rules} (the rules in force) and the class's {@code @Limit}
     * annotations ({@code declared}, null if none) plan in {@code type} to {@code builder}.
     */
    public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type,
            ClassLoader loader, RuleSet rules, LimitDeclarations declared) {
        List<PlannedSite> plan = SitePlanner.plan(type, rules, declared);
        Set<String> identities = new HashSet<>();
        DynamicType.Builder<?> woven = builder;
        for (PlannedSite planned : plan) {
            WovenSite site = WovenSites.register(loader, type.getName(), planned);
            if (planned.kind() == SiteKind.METHOD) {
                ThrowClassCheck.check(planned, type.getName(), rules, loader);
                if (planned.annotationId() != null) {
                    ThrowClassCheck.checkAnnotated(planned, type.getName(), rules, loader);
                }
            }
            woven = woven.visit(advice(site, planned).on(named(planned.method().getName())
                    .and(hasDescriptor(planned.method().getDescriptor()))));
            identities.add(planned.identity());
        }
        WovenSites.woven(loader, type.getName(), identities);
        return woven;
    }

    private Advice advice(WovenSite site, PlannedSite planned) {
        Advice.WithCustomMapping mapping = Advice.withCustomMapping().bind(SiteId.class, site.id);
        if (planned.keyIndex() >= 0) {
            mapping = mapping.bind(new Advice.OffsetMapping.ForArgument.Resolved.Factory<>(KeyArgument.class,
                    planned.method().getParameters().get(planned.keyIndex()), true, Assigner.Typing.DYNAMIC));
        } else {
            mapping = mapping.bind(KeyArgument.class, NullConstant.INSTANCE,
                    TypeDescription.Generic.OfNonGenericType.ForLoadedType.of(Object.class));
        }
        if (planned.costIndex() >= 0) {
            mapping = mapping.bind(CostArgument.class,
                    new CostArgumentMapping(planned.method().getParameters().get(planned.costIndex())));
        } else {
            mapping = mapping.bind(CostArgument.class, LongConstant.forValue(1),
                    TypeDescription.Generic.OfNonGenericType.ForLoadedType.of(long.class));
        }
        return mapping.to(ADVICE_TYPE, adviceLocator);
    }
}
