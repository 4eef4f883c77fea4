package dev.limiter.agent.weave;

import dev.limiter.agent.classfile.ClassReaders;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

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

    private WeaverWarmUp() {
    }

    /** Runs the transformer's read and weave path once over a synthetic servlet; never throws. */
    public static void run() {
        try {
            for (WeaveTarget target : new WeaveTarget[] {WeaveTarget.named("servlet-javax"), WeaveTarget.named("servlet-jakarta")}) {
                byte[] servlet = syntheticServlet(target);
                if (EntryPointNames.mayDeclare(servlet, target.bit)) {
                    ClassReaders.of(servlet).getInterfaces(); // what SuperTypes reads
                    EntryPointWeaver.weave(servlet, target.bit);
                }
            }
        } catch (Throwable ignored) {
            // only time is lost: the first real weave loads what it needs and reports its own failures
        }
    }

    /** {@code public void service(ServletRequest, ServletResponse)} of the {@code target}'s namespace. */
    static byte[] syntheticServlet(WeaveTarget target) {
        String pkg = target.id.equals("servlet-jakarta") ? "jakarta/servlet/" : "javax/servlet/";
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
