package dev.limiter.agent.weave;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.method.LimitDeclarations;
import dev.limiter.agent.method.MethodSites;
import dev.limiter.agent.method.SiteToWeave;
import dev.limiter.rules.RuleSet;
import java.util.List;

/**
 * Rewrites the class file of one class that a {@code method:} or {@code jaxrs:} rule names, or that carries
 * {@code @Limit}. If the class is also a servlet, filter or exception mapper, its entry points are woven first by
 * {@link EntryPointWeaver}, exactly as for a class no rule names, so each target has one advice.
 *
 * <p>Which methods to weave, and with which key and cost arguments, needs annotations and types (JAX-RS
 * annotations inherited from interfaces, a cost argument that is a {@code Collection}): those are read from class
 * files with ASM ({@link ClassShapes}: the class's own bytes, the others as resources of its loader), never by
 * loading a class. The code is then written with plain ASM ({@link MethodSiteWeaver}): only method bodies change
 * (no member added or removed, no type initialiser), so the JVM can retransform the class again after a reload
 * or a late attach.
 */
final class ClassWeaver {

    /**
     * The woven class file of {@code binaryName}, a class some rule names, or null if nothing changes.
     *
     * @param targets  the {@link WeaveTarget} bits the class implements (entry points woven with ASM first)
     * @param rules    the rules in force
     * @param declared the class's {@code @Limit} annotations, or null
     */
    byte[] weave(ClassLoader loader, String binaryName, byte[] classFile, int targets, RuleSet rules,
            LimitDeclarations declared) {
        byte[] entryPoints = targets == 0 ? null : EntryPointWeaver.weave(classFile, targets);
        byte[] input = entryPoints == null ? classFile : entryPoints;
        ClassShapes shapes = new ClassShapes(loader);
        ClassShape type = shapes.read(input);
        List<SiteToWeave> sites = MethodSites.register(type, shapes, loader, rules, declared);
        byte[] woven = MethodSiteWeaver.weave(input, sites);
        return woven == null ? entryPoints : woven;
    }
}
