package dev.limiter.agent.weave;

import dev.limiter.agent.method.MethodSites;
import dev.limiter.agent.method.SiteToWeave;
import java.util.List;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Weaves a synthetic servlet once on the agent's own thread, so the application's first servlet or filter class
 * does not load ASM's reader and writer (some 40 classes, 15-20 ms of a Jetty 9.4 start) on the thread that
 * starts the application.
 *
 * <p>The agent calls it on its rules thread while the application starts: if the application reaches its first
 * servlet sooner, the two threads share the class loading (the agent loader is parallel capable), so nothing is
 * lost. Nothing is defined and the woven bytes are dropped; a failure here is ignored, because the real weave
 * reports its own failures.
 */
public final class WeaverWarmUp {

    private static final String SYNTHETIC = "dev/limiter/agent/weave/WeaverWarmUp$Servlet";
    private static final String SYNTHETIC_SERVICE = "dev/limiter/agent/weave/WeaverWarmUp$Service";
    /** A JDK class with methods that take collections: described as a class a rule names would be. */
    static final String DESCRIBED = "java.util.ArrayList";
    /** The synthetic service's one method, woven with a key and a cost argument. */
    static final SiteToWeave SERVICE_SITE = new SiteToWeave("call", "(I)I", 0, 0, 0);

    private WeaverWarmUp() {
    }

    /** Runs the transformer's read and weave path once over a synthetic servlet; never throws. */
    public static void run() {
        try {
            for (WeaveTarget target : new WeaveTarget[] {WeaveTarget.SERVLET_JAVAX, WeaveTarget.SERVLET_JAKARTA}) {
                byte[] servlet = syntheticServlet(target);
                if (EntryPointNames.mayDeclare(servlet, target.bit)) {
                    OpenedClassReader.of(servlet).getInterfaces(); // what SuperTypes reads
                    EntryPointWeaver.weave(servlet, target.bit);
                }
            }
        } catch (Throwable ignored) {
            // only time is lost: the first real weave loads what it needs and reports its own failures
        }
    }

    /**
     * For rules that name classes: describes a JDK class through a type pool and weaves a synthetic method, as
     * {@link ClassWeaver} does for a class a rule names, registering nothing. Byte Buddy's type descriptions
     * (~270 classes) then load on the agent's thread, not on the thread that loads the first such class. Never
     * throws.
     */
    public static void methodSites() {
        try {
            TypePool pool = new TypePools().forTransformation(null, DESCRIBED,
                    ClassFileLocator.ForClassLoader.ofBootLoader());
            MethodSites.exercise(pool.describe(DESCRIBED).resolve());
            MethodSiteWeaver.weave(syntheticService(), List.of(SERVICE_SITE));
        } catch (Throwable ignored) {
            // only time is lost, as above
        }
    }

    /** {@code public int call(int)}, returning its argument. */
    static byte[] syntheticService() {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, SYNTHETIC_SERVICE, null,
                "java/lang/Object", null);
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_PUBLIC, "call", "(I)I", null, null);
        method.visitCode();
        method.visitVarInsn(Opcodes.ILOAD, 1);
        method.visitInsn(Opcodes.IRETURN);
        method.visitMaxs(1, 2);
        method.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** {@code public void service(ServletRequest, ServletResponse)} of the {@code target}'s namespace. */
    static byte[] syntheticServlet(WeaveTarget target) {
        String pkg = target == WeaveTarget.SERVLET_JAKARTA ? "jakarta/servlet/" : "javax/servlet/";
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, SYNTHETIC, null, "java/lang/Object",
                new String[] {pkg + "Servlet"});
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_PUBLIC, "service",
                "(L" + pkg + "ServletRequest;L" + pkg + "ServletResponse;)V", null, null);
        method.visitCode();
        method.visitInsn(Opcodes.RETURN);
        method.visitMaxs(0, 3);
        method.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
