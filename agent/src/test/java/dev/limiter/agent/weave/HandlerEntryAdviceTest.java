package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.bootstrap.HandlerBridge;
import dev.limiter.bootstrap.LimiterBridge;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ASM advice of a request handler that ends on its own thread ({@link AdviceShape#HANDLER}), loaded and run
 * for real against a stand-in generated under Helidon's class name ({@code HttpRoutingImpl}, with
 * {@code route(ConnectionContext, RoutingRequest, RoutingResponse)} that keeps a local, branches, records the
 * request and may throw, so the woven body keeps its own frames and locals beside the advice's token): the last
 * two arguments go to the bridge, an answer skips the body, a token runs exactly once at the exit whether the body
 * returns or throws, and a failing delegate leaves the body to run. The real class runs in the forked-server test
 * (Helidon4LimiterTest).
 */
class HandlerEntryAdviceTest {

    private static final String ROUTING = "io/helidon/webserver/http/HttpRoutingImpl";
    private static final String CONTEXT = "io/helidon/webserver/ConnectionContext";
    private static final String REQUEST = "io/helidon/webserver/http/RoutingRequest";
    private static final String RESPONSE = "io/helidon/webserver/http/RoutingResponse";
    private static final String ROUTE = "(L" + CONTEXT + ";L" + REQUEST + ";L" + RESPONSE + ";)V";

    private final List<Object> log = new ArrayList<>();

    @AfterEach
    void uninstall() {
        HandlerBridge.install(null);
    }

    @Test
    void theRoutingIsFoundByItsNameAndOnlyItsRouteIsWoven() {
        WeaveTarget helidon = WeaveTarget.named("helidon-webserver");
        assertThat(helidon.shape).isEqualTo(AdviceShape.HANDLER);
        assertThat(WeaveTarget.exactBits(ROUTING)).isEqualTo(helidon.bit);
        assertThat(WeaveTarget.exactBitsOfBinaryName(ROUTING.replace('/', '.'))).isEqualTo(helidon.bit);
        assertThat(WeaveTarget.exactBits("io/helidon/webserver/http/HttpRouting")).isZero();
        byte[] woven = EntryPointWeaver.weave(routingClass(), helidon.bit);
        assertThat(new String(woven, StandardCharsets.ISO_8859_1)).contains(HandlerEntryAdvice.BRIDGE);
        assertThat(helidon.weaves(Opcodes.ACC_PUBLIC, "route", ROUTE)).isTrue();
        assertThat(helidon.weaves(Opcodes.ACC_PUBLIC, "routeUpgrade", ROUTE)).isFalse();
        assertThat(helidon.weaves(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "route", ROUTE)).isFalse();
        assertThat(helidon.weaves(Opcodes.ACC_PUBLIC, "route", ROUTE.replace(")V", ")Z"))).isFalse();
    }

    @Test
    void theShapeFitsAVoidMethodEndingInTwoObjects() {
        assertThat(AdviceShape.HANDLER.fits("(JLa/Req;La/Res;)V", "(JLa/Req;La/Res;)V")).isTrue();
        assertThat(AdviceShape.HANDLER.fits("(La/Req;I)V", "(La/Req;I)V")).isFalse();
        assertThat(AdviceShape.HANDLER.fits("(La/Req;)V", "(La/Req;)V")).isFalse();
        assertThat(AdviceShape.HANDLER.fits("(La/Req;La/Res;)", "(La/Req;La/Res;)Ljava/lang/Object;")).isFalse();
        assertThat(AdviceShape.HANDLER.addsLocal()).isTrue();
    }

    @Test
    void withoutADelegateTheRequestIsServed() throws Throwable {
        Stand stand = new Stand();
        Object request = stand.newRequest();
        stand.route(request);
        assertThat(stand.routed()).containsExactly(request);
    }

    @Test
    void anAnswerSkipsTheBodyAndNullServesIt() throws Throwable {
        Stand stand = new Stand();
        Object rejected = stand.newRequest();
        Object admitted = stand.newRequest();
        Object response = stand.newResponse();
        HandlerBridge.install((request, res) -> {
            log.add(Map.entry(request, res));
            return request == rejected ? HandlerBridge.ANSWERED : null;
        });
        stand.route(rejected, response);
        stand.route(admitted, response);
        assertThat(log).containsExactly(Map.entry(rejected, response), Map.entry(admitted, response));
        assertThat(stand.routed()).containsExactly(admitted);
    }

    @Test
    void aTokenRunsOnceAfterTheBodyWhetherItReturnsOrThrows() throws Throwable {
        Stand stand = new Stand();
        HandlerBridge.install((request, response) -> (Runnable) () -> log.add("released " + request));
        Object request = stand.newRequest();
        stand.route(request);
        assertThat(log).containsExactly("released " + request);
        assertThat(stand.routed()).containsExactly(request);

        log.clear();
        stand.failing(true);
        Object failing = stand.newRequest();
        assertThatThrownBy(() -> stand.route(failing)).isInstanceOf(IllegalStateException.class)
                .hasMessage("handler");
        assertThat(log).containsExactly("released " + failing);
        assertThat(stand.routed()).containsExactly(request, failing);
    }

    @Test
    void aFailingDelegateIsCountedAndTheRequestIsServed() throws Throwable {
        Stand stand = new Stand();
        Object request = stand.newRequest();
        long before = LimiterBridge.internalErrors();
        HandlerBridge.install((r, s) -> {
            throw new IllegalStateException("delegate");
        });
        stand.route(request);
        assertThat(stand.routed()).containsExactly(request);
        assertThat(LimiterBridge.internalErrors()).isEqualTo(before + 1);
    }

    /** The woven class and its stand-in argument types in one fresh loader. */
    private static final class Stand {

        private final Class<?> routing;
        private final ClassLoader loader;

        Stand() throws Exception {
            byte[] woven = EntryPointWeaver.weave(routingClass(), WeaveTarget.named("helidon-webserver").bit);
            assertThat(woven).as("woven").isNotNull();
            Map<String, byte[]> classes = Map.of(ROUTING, woven, CONTEXT, emptyClass(CONTEXT), REQUEST,
                    emptyClass(REQUEST), RESPONSE, emptyClass(RESPONSE));
            loader = new ClassLoader(HandlerEntryAdviceTest.class.getClassLoader()) {
                @Override
                protected Class<?> findClass(String name) throws ClassNotFoundException {
                    byte[] file = classes.get(name.replace('.', '/'));
                    if (file == null) {
                        throw new ClassNotFoundException(name);
                    }
                    return defineClass(name, file, 0, file.length);
                }
            };
            routing = loader.loadClass(ROUTING.replace('/', '.'));
            routing.getField("routed").set(null, new ArrayList<>());
        }

        Object newRequest() throws Exception {
            return newInstance(REQUEST);
        }

        Object newResponse() throws Exception {
            return newInstance(RESPONSE);
        }

        void failing(boolean fail) throws Exception {
            routing.getField("fail").setBoolean(null, fail);
        }

        void route(Object request) throws Throwable {
            route(request, newResponse());
        }

        void route(Object request, Object response) throws Throwable {
            Method route = null;
            for (Method candidate : routing.getMethods()) {
                if (candidate.getName().equals("route")) {
                    route = candidate;
                }
            }
            try {
                route.invoke(routing.getConstructor().newInstance(), newInstance(CONTEXT), request, response);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @SuppressWarnings("unchecked")
        List<Object> routed() throws Exception {
            return (List<Object>) routing.getField("routed").get(null);
        }

        private Object newInstance(String type) throws Exception {
            return loader.loadClass(type.replace('/', '.')).getConstructor().newInstance();
        }
    }

    /** {@code public class <name>} with a public no-argument constructor. */
    private static byte[] emptyClass(String name) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        StandIns.constructor(writer);
        writer.visitEnd();
        return writer.toByteArray();
    }

    /**
     * {@code public class HttpRoutingImpl} with {@code public static List routed}, {@code public static boolean
     * fail} and {@code public void route(ConnectionContext, RoutingRequest, RoutingResponse)}: keeps
     * {@code routed} in a local of its own, returns if it is null, adds the request, then throws if {@code fail}.
     */
    private static byte[] routingClass() {
        ClassWriter writer = StandIns.writer();
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, ROUTING, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "routed", "Ljava/util/List;", null, null)
                .visitEnd();
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "fail", "Z", null, null).visitEnd();
        StandIns.constructor(writer);

        MethodVisitor m = writer.visitMethod(Opcodes.ACC_PUBLIC, "route", ROUTE, null, null);
        m.visitCode();
        Label none = new Label();
        Label ok = new Label();
        m.visitFieldInsn(Opcodes.GETSTATIC, ROUTING, "routed", "Ljava/util/List;");
        m.visitVarInsn(Opcodes.ASTORE, 4);
        m.visitVarInsn(Opcodes.ALOAD, 4);
        m.visitJumpInsn(Opcodes.IFNULL, none);
        m.visitVarInsn(Opcodes.ALOAD, 4);
        m.visitVarInsn(Opcodes.ALOAD, 2);
        m.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/List", "add", "(Ljava/lang/Object;)Z", true);
        m.visitInsn(Opcodes.POP);
        m.visitFieldInsn(Opcodes.GETSTATIC, ROUTING, "fail", "Z");
        m.visitJumpInsn(Opcodes.IFEQ, ok);
        m.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
        m.visitInsn(Opcodes.DUP);
        m.visitLdcInsn("handler");
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>",
                "(Ljava/lang/String;)V", false);
        m.visitInsn(Opcodes.ATHROW);
        m.visitLabel(ok);
        m.visitInsn(Opcodes.RETURN);
        m.visitLabel(none);
        m.visitInsn(Opcodes.RETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
