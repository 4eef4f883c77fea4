package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RoutingBridge;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ASM advice of Vert.x Web's router, loaded and run for real against a stand-in generated under the real
 * class's name ({@code RoutingContextImpl}, with a package-private {@code route()} that records that it routed and
 * branches, so the woven body keeps its own frames): the context is handed to the bridge before routing, an answer
 * of true skips routing, false or a failing delegate routes as before. The real class runs in the forked-server
 * test (QuarkusHttpLimiterTest).
 */
class RoutingEntryAdviceTest {

    private static final String CONTEXT = "io/vertx/ext/web/impl/RoutingContextImpl";

    private final List<Object> asked = new ArrayList<>();

    @AfterEach
    void uninstall() {
        RoutingBridge.install(null);
    }

    @Test
    void theContextIsFoundByItsNameAndOnlyRouteIsWoven() {
        assertThat(WeaveTarget.exactBits(CONTEXT)).isEqualTo(WeaveTarget.named("vertx-web").bit);
        assertThat(WeaveTarget.exactBitsOfBinaryName(CONTEXT.replace('/', '.'))).isEqualTo(WeaveTarget.named("vertx-web").bit);
        assertThat(WeaveTarget.exactBits("io/vertx/ext/web/impl/RouterImpl")).isZero();
        assertThat(WeaveTarget.exactBits("io/vertx/ext/web/impl/RoutingContextWrapper")).isZero();
        assertThat(WeaveTarget.named("vertx-web").apiResource).isNull();
        byte[] woven = EntryPointWeaver.weave(contextClass(), WeaveTarget.named("vertx-web").bit);
        assertThat(new String(woven, StandardCharsets.ISO_8859_1)).contains(RoutingEntryAdvice.BRIDGE);
        assertThat(WeaveTarget.named("vertx-web").weaves(0, "route", "()V")).isTrue();
        assertThat(WeaveTarget.named("vertx-web").weaves(0, "route", "(Ljava/lang/String;)V")).as("another overload")
                .isFalse();
        assertThat(WeaveTarget.named("vertx-web").weaves(Opcodes.ACC_STATIC, "route", "()V")).isFalse();
        assertThat(WeaveTarget.named("vertx-web").weaves(Opcodes.ACC_PUBLIC, "next", "()V")).isFalse();
    }

    @Test
    void withoutADelegateTheRequestIsRouted() throws Throwable {
        Stand stand = new Stand();
        Object context = stand.newContext();
        stand.route(context);
        assertThat(stand.routed()).containsExactly(context);
    }

    @Test
    void anAnswerOfTrueSkipsRoutingAndFalseRoutes() throws Throwable {
        Stand stand = new Stand();
        Object rejected = stand.newContext();
        Object admitted = stand.newContext();
        RoutingBridge.install(context -> asked.add(context) && context == rejected);
        stand.route(rejected);
        stand.route(admitted);
        assertThat(asked).containsExactly(rejected, admitted);
        assertThat(stand.routed()).containsExactly(admitted);
    }

    @Test
    void aFailingDelegateIsCountedAndTheRequestIsRouted() throws Throwable {
        Stand stand = new Stand();
        Object context = stand.newContext();
        long before = LimiterBridge.internalErrors();
        RoutingBridge.install(c -> {
            throw new IllegalStateException("delegate");
        });
        stand.route(context);
        assertThat(stand.routed()).containsExactly(context);
        assertThat(LimiterBridge.internalErrors()).isEqualTo(before + 1);
    }

    /** The woven class in one fresh loader. */
    private static final class Stand {

        private final Class<?> type;

        Stand() throws Exception {
            byte[] woven = EntryPointWeaver.weave(contextClass(), WeaveTarget.named("vertx-web").bit);
            assertThat(woven).as("woven").isNotNull();
            type = StandIns.define(CONTEXT, woven);
            type.getField("routed").set(null, new ArrayList<>());
        }

        Object newContext() throws Exception {
            return type.getConstructor().newInstance();
        }

        void route(Object context) throws Throwable {
            var route = type.getDeclaredMethod("route");
            route.setAccessible(true);
            try {
                route.invoke(context);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @SuppressWarnings("unchecked")
        List<Object> routed() throws Exception {
            return (List<Object>) type.getField("routed").get(null);
        }
    }

    /**
     * {@code public class RoutingContextImpl} with {@code public static List routed} and a package-private
     * {@code void route()} that adds {@code this} to {@code routed} if the list is there, from one of two returns.
     */
    static byte[] contextClass() {
        ClassWriter writer = StandIns.writer();
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, CONTEXT, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "routed", "Ljava/util/List;", null, null)
                .visitEnd();
        StandIns.constructor(writer);

        MethodVisitor m = writer.visitMethod(0, "route", "()V", null, null);
        m.visitCode();
        Label none = new Label();
        m.visitFieldInsn(Opcodes.GETSTATIC, CONTEXT, "routed", "Ljava/util/List;");
        m.visitJumpInsn(Opcodes.IFNULL, none);
        m.visitFieldInsn(Opcodes.GETSTATIC, CONTEXT, "routed", "Ljava/util/List;");
        m.visitVarInsn(Opcodes.ALOAD, 0);
        m.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/List", "add", "(Ljava/lang/Object;)Z", true);
        m.visitInsn(Opcodes.POP);
        m.visitInsn(Opcodes.RETURN);
        m.visitLabel(none);
        m.visitInsn(Opcodes.RETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
