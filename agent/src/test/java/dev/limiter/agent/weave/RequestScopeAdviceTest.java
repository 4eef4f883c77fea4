package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.bootstrap.LimiterBridge;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * The ASM advice of RESTEasy Reactive's handler chain, loaded and run for real against a stand-in generated under
 * the real class's name ({@code AbstractResteasyReactiveContext}, abstract, with a {@code run()} whose body asks
 * the bridge for the current request): the context is the thread's current request while {@code run()} runs,
 * nothing is current after it returns or throws, a nested run keeps the outer request, and a servlet request in
 * flight stays current. The real class runs in the forked-server test (QuarkusRestLimiterTest).
 */
class RequestScopeAdviceTest {

    private static final String CONTEXT = "org/jboss/resteasy/reactive/common/core/AbstractResteasyReactiveContext";
    private static final String SUBCLASS = "org/jboss/resteasy/reactive/server/vertx/VertxStandIn";

    @Test
    void theContextIsTheCurrentRequestWhileRunRunsAndNotAfter() throws Throwable {
        Stand stand = new Stand();
        Object context = stand.newContext(false);
        assertThat(LimiterBridge.currentRequest()).isNull();
        stand.run(context);
        assertThat(stand.seen()).containsExactly(context);
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void aRunThatThrowsLeavesNoCurrentRequest() throws Throwable {
        Stand stand = new Stand();
        Object context = stand.newContext(true);
        assertThatThrownBy(() -> stand.run(context)).isInstanceOf(IllegalStateException.class)
                .hasMessage("handler chain failed");
        assertThat(stand.seen()).containsExactly(context);
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void aNestedRunKeepsTheOuterRequestUntilTheOuterRunEnds() throws Throwable {
        Stand stand = new Stand();
        Object outer = stand.newContext(false);
        Object inner = stand.newContext(false);
        LimiterBridge.requestEnter(outer);
        try {
            stand.run(inner);
            assertThat(LimiterBridge.currentRequest()).isSameAs(outer);
        } finally {
            LimiterBridge.requestExit();
        }
        assertThat(stand.seen()).containsExactly(outer);
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void aRequestExitWithoutAnEnterChangesNothing() {
        LimiterBridge.requestExit();
        assertThat(LimiterBridge.currentRequest()).isNull();
        Object request = new Object();
        LimiterBridge.requestEnter(request);
        LimiterBridge.requestExit();
        LimiterBridge.requestExit();
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    /** The woven base class and a concrete subclass, in one fresh loader. */
    private static final class Stand {

        private final Class<?> subclass;
        private final Class<?> base;

        Stand() throws Exception {
            byte[] woven = EntryPointWeaver.weave(contextClass(), WeaveTarget.named("resteasy-reactive").bit);
            assertThat(woven).as("woven").isNotNull();
            byte[] sub = subclass();
            ClassLoader loader = new ClassLoader(RequestScopeAdviceTest.class.getClassLoader()) {
                @Override
                protected Class<?> findClass(String name) throws ClassNotFoundException {
                    byte[] file = name.equals(CONTEXT.replace('/', '.')) ? woven
                            : name.equals(SUBCLASS.replace('/', '.')) ? sub : null;
                    if (file == null) {
                        throw new ClassNotFoundException(name);
                    }
                    return defineClass(name, file, 0, file.length);
                }
            };
            base = loader.loadClass(CONTEXT.replace('/', '.'));
            subclass = loader.loadClass(SUBCLASS.replace('/', '.'));
            base.getField("seen").set(null, new ArrayList<>());
        }

        Object newContext(boolean fails) throws Exception {
            return subclass.getConstructor(boolean.class).newInstance(fails);
        }

        void run(Object context) throws Throwable {
            try {
                base.getMethod("run").invoke(context);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @SuppressWarnings("unchecked")
        List<Object> seen() throws Exception {
            return (List<Object>) base.getField("seen").get(null);
        }
    }

    /**
     * {@code public abstract class AbstractResteasyReactiveContext} with {@code public static List seen},
     * {@code protected final boolean fails} and {@code public void run()}, which adds
     * {@code LimiterBridge.currentRequest()} to {@code seen}, then throws {@code IllegalStateException("handler
     * chain failed")} if {@code fails}, else returns from one of two returns (so more than one return is woven).
     */
    private static byte[] contextClass() {
        ClassWriter writer = StandIns.writer();
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER | Opcodes.ACC_ABSTRACT, CONTEXT, null,
                "java/lang/Object", new String[] {"java/lang/Runnable"});
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "seen", "Ljava/util/List;", null, null).visitEnd();
        writer.visitField(Opcodes.ACC_PROTECTED | Opcodes.ACC_FINAL, "fails", "Z", null, null).visitEnd();
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(Z)V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ILOAD, 1);
        init.visitFieldInsn(Opcodes.PUTFIELD, CONTEXT, "fails", "Z");
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        MethodVisitor m = writer.visitMethod(Opcodes.ACC_PUBLIC, "run", "()V", null, null);
        m.visitCode();
        m.visitFieldInsn(Opcodes.GETSTATIC, CONTEXT, "seen", "Ljava/util/List;");
        m.visitMethodInsn(Opcodes.INVOKESTATIC, "dev/limiter/bootstrap/LimiterBridge", "currentRequest",
                "()Ljava/lang/Object;", false);
        m.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/List", "add", "(Ljava/lang/Object;)Z", true);
        m.visitInsn(Opcodes.POP);
        Label ok = new Label();
        m.visitVarInsn(Opcodes.ALOAD, 0);
        m.visitFieldInsn(Opcodes.GETFIELD, CONTEXT, "fails", "Z");
        m.visitJumpInsn(Opcodes.IFEQ, ok);
        m.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
        m.visitInsn(Opcodes.DUP);
        m.visitLdcInsn("handler chain failed");
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>",
                "(Ljava/lang/String;)V", false);
        m.visitInsn(Opcodes.ATHROW);
        m.visitLabel(ok);
        Label second = new Label();
        m.visitFieldInsn(Opcodes.GETSTATIC, CONTEXT, "seen", "Ljava/util/List;");
        m.visitJumpInsn(Opcodes.IFNULL, second);
        m.visitInsn(Opcodes.RETURN);
        m.visitLabel(second);
        m.visitInsn(Opcodes.RETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A concrete subclass with a {@code (boolean fails)} constructor. */
    private static byte[] subclass() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, SUBCLASS, null, CONTEXT, null);
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(Z)V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ILOAD, 1);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, CONTEXT, "<init>", "(Z)V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
