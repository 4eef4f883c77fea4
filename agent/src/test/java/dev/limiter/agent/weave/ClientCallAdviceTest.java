package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.ClientDelegate;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client advice of a call method with more than three arguments (Apache's async {@code executeImmediate}),
 * loaded and run for real against a stand-in with that method's exact descriptor: its five arguments are packed
 * into one array for the bridge only while a rule may decide the call ({@code ClientBridge.deciding()}); without
 * one the call runs with nothing asked and nothing allocated. The real client runs in
 * {@code OutboundApacheAsyncClientJarLayoutTest}.
 */
class ClientCallAdviceTest {

    private static final String STEP = "weavingtest/AsyncStep";
    private static final String EXECUTE_IMMEDIATE = "(Lorg/apache/hc/core5/http/HttpRequest;"
            + "Lorg/apache/hc/core5/http/nio/AsyncEntityProducer;"
            + "Lorg/apache/hc/client5/http/async/AsyncExecChain$Scope;"
            + "Lorg/apache/hc/client5/http/async/AsyncExecChain;"
            + "Lorg/apache/hc/client5/http/async/AsyncExecCallback;)V";
    private static final int CALLS = 100_000;

    private final List<Object> asked = new ArrayList<>();

    @AfterEach
    void uninstall() {
        ClientBridge.install(null);
        ClientBridge.clientRules(false);
    }

    @Test
    void theArgumentsArePackedOnlyWhileAClientRuleMayDecide() throws Exception {
        ClientBridge.install(new Recording());
        Class<?> step = wovenStep();

        ClientBridge.clientRules(false);
        step.getMethod("calls", int.class).invoke(null, 1);
        assertThat(asked).as("no client rule: the bridge is not asked").isEmpty();
        assertThat(step.getField("ran").getInt(null)).isEqualTo(1);

        ClientBridge.clientRules(true);
        step.getMethod("calls", int.class).invoke(null, 1);
        assertThat(asked).singleElement().satisfies(request ->
                assertThat((Object[]) request).as("the five arguments, in one array").hasSize(5));
        assertThat(step.getField("ran").getInt(null)).as("the call ran: the delegate left it alone").isEqualTo(2);
    }

    @Test
    void withoutAClientRuleACallAllocatesNothing() throws Exception {
        ClientBridge.install(new Recording());
        Class<?> step = wovenStep();
        var calls = step.getMethod("calls", int.class);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();

        ClientBridge.clientRules(false);
        calls.invoke(null, CALLS); // warm
        long before = threads.getThreadAllocatedBytes(thread);
        calls.invoke(null, CALLS);
        long without = threads.getThreadAllocatedBytes(thread) - before;

        ClientBridge.clientRules(true);
        calls.invoke(null, 10);
        asked.clear();
        before = threads.getThreadAllocatedBytes(thread);
        calls.invoke(null, CALLS);
        long with = threads.getThreadAllocatedBytes(thread) - before;

        assertThat(without).as("%d calls without a client rule", CALLS).isLessThan(CALLS);
        assertThat(with).as("%d calls with one: an array each", CALLS).isGreaterThanOrEqualTo(CALLS * 24L);
        assertThat(asked).hasSize(CALLS);
    }

    /** Records the request each call hands the bridge and leaves the call alone. */
    private final class Recording implements ClientDelegate {

        @Override
        public Object onCallStart(Object client, Object request, Object handler, Object push, boolean async) {
            asked.add(request);
            return null;
        }

        @Override
        public Object onExchangeReturn(Object result, Object token) {
            return result;
        }

        @Override
        public void onExchangeFailed(Object token) {
        }
    }

    /** The stand-in, woven for Apache's async target and defined in a fresh loader. */
    private static Class<?> wovenStep() throws Exception {
        byte[] woven = EntryPointWeaver.weave(stepClass(), WeaveTarget.named("apache-async").bit);
        assertThat(woven).as("woven").isNotNull();
        return StandIns.define(STEP, woven);
    }

    /**
     * {@code public class AsyncStep} with {@code public static int ran}, {@code public void executeImmediate(...)}
     * of Apache's descriptor that counts in {@code ran}, and {@code public static void calls(int n)} that calls it
     * {@code n} times with null arguments on one instance.
     */
    private static byte[] stepClass() {
        ClassWriter writer = StandIns.writer();
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, STEP, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "ran", "I", null, null).visitEnd();
        StandIns.constructor(writer);

        MethodVisitor execute = writer.visitMethod(Opcodes.ACC_PUBLIC, "executeImmediate", EXECUTE_IMMEDIATE, null,
                null);
        execute.visitCode();
        execute.visitFieldInsn(Opcodes.GETSTATIC, STEP, "ran", "I");
        execute.visitInsn(Opcodes.ICONST_1);
        execute.visitInsn(Opcodes.IADD);
        execute.visitFieldInsn(Opcodes.PUTSTATIC, STEP, "ran", "I");
        execute.visitInsn(Opcodes.RETURN);
        execute.visitMaxs(0, 0);
        execute.visitEnd();

        MethodVisitor calls = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "calls", "(I)V", null, null);
        calls.visitCode();
        calls.visitTypeInsn(Opcodes.NEW, STEP);
        calls.visitInsn(Opcodes.DUP);
        calls.visitMethodInsn(Opcodes.INVOKESPECIAL, STEP, "<init>", "()V", false);
        calls.visitVarInsn(Opcodes.ASTORE, 1);
        Label loop = new Label();
        Label done = new Label();
        calls.visitLabel(loop);
        calls.visitVarInsn(Opcodes.ILOAD, 0);
        calls.visitJumpInsn(Opcodes.IFLE, done);
        calls.visitVarInsn(Opcodes.ALOAD, 1);
        for (int i = 0; i < 5; i++) {
            calls.visitInsn(Opcodes.ACONST_NULL);
        }
        calls.visitMethodInsn(Opcodes.INVOKEVIRTUAL, STEP, "executeImmediate", EXECUTE_IMMEDIATE, false);
        calls.visitIincInsn(0, -1);
        calls.visitJumpInsn(Opcodes.GOTO, loop);
        calls.visitLabel(done);
        calls.visitInsn(Opcodes.RETURN);
        calls.visitMaxs(0, 0);
        calls.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
