package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.bootstrap.FlowBridge;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.ReactiveDelegate;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ReactiveEntryAdvice} in a method of the request alone: Micronaut's {@code protected final
 * RequestLifecycle.normalFlow(HttpRequest)}, woven for the {@code micronaut} target to call {@code FlowBridge},
 * loaded and run for real against stand-ins of the types its bytecode names (generated under Micronaut's names in a
 * loader of their own; the agent's tests do not have Micronaut): the request alone reaches the delegate, the
 * rejection replaces the flow, a held token wraps every return, a throw gives it back once, and a failing delegate
 * leaves the request alone. The real classes run in Micronaut4LimiterTest.
 */
class FlowEntryAdviceTest {

    private static final String LIFECYCLE = "io/micronaut/http/server/RequestLifecycle";
    private static final String REQUEST = "io/micronaut/http/HttpRequest";
    private static final String FLOW = "io/micronaut/core/execution/ExecutionFlow";
    private static final String NORMAL_FLOW = "(L" + REQUEST + ";)L" + FLOW + ";";

    private final List<String> calls = new ArrayList<>();

    @AfterEach
    void uninstall() {
        FlowBridge.install(null);
        FlowBridge.failed(); // no token left on this thread by a failed test
    }

    @Test
    void theTargetIsFoundByNameAndOnlyItsOneArgumentOverloadCallsTheFlowBridge() {
        WeaveTarget target = WeaveTarget.named("micronaut");
        assertThat(WeaveTarget.exactBits(LIFECYCLE)).isEqualTo(target.bit);
        assertThat(WeaveTarget.exactBits("io/micronaut/http/server/netty/NettyRequestLifecycle")).isZero();
        assertThat(target.apiResource).isNull();
        String text = new String(EntryPointWeaver.weave(lifecycleClass(), target.bit), StandardCharsets.ISO_8859_1);
        assertThat(text).contains("dev/limiter/bootstrap/FlowBridge").doesNotContain(ReactiveEntryAdvice.BRIDGE);
        assertThat(target.weaves(Opcodes.ACC_PROTECTED | Opcodes.ACC_FINAL, "normalFlow", NORMAL_FLOW)).isTrue();
        assertThat(target.weaves(Opcodes.ACC_PROTECTED | Opcodes.ACC_FINAL, "normalFlow", "()L" + FLOW + ";"))
                .as("the deprecated overload").isFalse();
        assertThat(target.weaves(Opcodes.ACC_PROTECTED | Opcodes.ACC_FINAL, "onRouteMiss", NORMAL_FLOW)).isFalse();
    }

    @Test
    void theRequestAloneReachesTheDelegateAndARejectionIsReturnedInsteadOfTheFlow() throws Throwable {
        Stand stand = new Stand();
        Object rejection = stand.newFlow();
        Object request = stand.request();
        Object[] seen = new Object[2];
        FlowBridge.install(new Recording() {
            @Override
            public Object onExchangeStart(Object first, Object second) {
                seen[0] = first;
                seen[1] = second;
                return rejection;
            }
        });
        assertThat(stand.normalFlow(request)).isSameAs(rejection);
        assertThat(seen[0]).isSameAs(request);
        assertThat(seen[1]).isNull();
        assertThat(stand.bodyRuns()).isZero();
    }

    @Test
    void aRequestHoldingNothingRunsUntouched() throws Throwable {
        Stand stand = new Stand();
        FlowBridge.install(new Recording());
        Object result = stand.normalFlow(stand.request());
        assertThat(result.getClass().getName()).isEqualTo(FLOW.replace('/', '.'));
        assertThat(stand.bodyRuns()).isEqualTo(1);
        assertThat(calls).containsExactly("start");
    }

    @Test
    void aHeldTokenWrapsEveryReturnedFlow() throws Throwable {
        Stand stand = new Stand();
        Object wrapped = stand.newFlow();
        FlowBridge.install(new Recording() {
            @Override
            public Object onExchangeStart(Object request, Object none) {
                calls.add("start");
                FlowBridge.hold("token");
                return null;
            }

            @Override
            public Object onExchangeReturn(Object result, Object token) {
                calls.add("return " + token);
                return wrapped;
            }
        });
        assertThat(stand.normalFlow(stand.request())).isSameAs(wrapped);
        stand.takeTheOtherReturn();
        assertThat(stand.normalFlow(stand.request())).isSameAs(wrapped);
        assertThat(stand.bodyRuns()).isEqualTo(2);
        FlowBridge.install(new Recording());
        stand.normalFlow(stand.request());
        assertThat(calls).containsExactly("start", "return token", "start", "return token", "start");
    }

    @Test
    void aMethodThatThrowsGivesTheTokenBackOnceAndTheExceptionPropagates() throws Throwable {
        Stand stand = new Stand();
        FlowBridge.install(new Recording() {
            @Override
            public Object onExchangeStart(Object request, Object none) {
                calls.add("start");
                FlowBridge.hold("token");
                return null;
            }
        });
        assertThatThrownBy(() -> stand.normalFlow(null))
                .isInstanceOf(IllegalStateException.class).hasMessage("flow failed");
        FlowBridge.failed();
        assertThat(calls).containsExactly("start", "failed token");
    }

    @Test
    void aFailingDelegateLeavesTheRequestAlone() throws Throwable {
        Stand stand = new Stand();
        long errors = LimiterBridge.internalErrors();
        FlowBridge.install(new Recording() {
            @Override
            public Object onExchangeStart(Object request, Object none) {
                throw new IllegalStateException("the agent failed");
            }
        });
        Object result = stand.normalFlow(stand.request());
        assertThat(result.getClass().getName()).isEqualTo(FLOW.replace('/', '.'));
        assertThat(stand.bodyRuns()).isEqualTo(1);
        assertThat(LimiterBridge.internalErrors()).isEqualTo(errors + 1);
    }

    /** Records what the bridge asks; holds nothing and rejects nothing unless overridden. */
    private class Recording implements ReactiveDelegate {

        @Override
        public Object onExchangeStart(Object request, Object none) {
            calls.add("start");
            return null;
        }

        @Override
        public Object onExchangeReturn(Object result, Object token) {
            calls.add("return " + token);
            return result;
        }

        @Override
        public void onExchangeFailed(Object token) {
            calls.add("failed " + token);
        }
    }

    /** The stand-in types and the woven lifecycle, each in one fresh loader. */
    private static final class Stand {

        private final Class<?> lifecycle;
        private final Class<?> flow;
        private final Class<?> request;
        private final Object instance;

        Stand() throws Exception {
            Map<String, byte[]> classes = new HashMap<>();
            classes.put(FLOW, plainClass(FLOW));
            classes.put(REQUEST, anInterface(REQUEST));
            byte[] woven = EntryPointWeaver.weave(lifecycleClass(), WeaveTarget.named("micronaut").bit);
            assertThat(woven).as("woven").isNotNull();
            classes.put(LIFECYCLE, woven);
            ClassLoader loader = new ClassLoader(FlowEntryAdviceTest.class.getClassLoader()) {
                @Override
                protected Class<?> findClass(String name) throws ClassNotFoundException {
                    byte[] file = classes.get(name.replace('.', '/'));
                    if (file == null) {
                        throw new ClassNotFoundException(name);
                    }
                    return defineClass(name, file, 0, file.length);
                }
            };
            lifecycle = loader.loadClass(LIFECYCLE.replace('/', '.'));
            flow = loader.loadClass(FLOW.replace('/', '.'));
            request = loader.loadClass(REQUEST.replace('/', '.'));
            instance = lifecycle.getConstructor().newInstance();
        }

        Object newFlow() throws Exception {
            return flow.getConstructor().newInstance();
        }

        Object request() {
            return java.lang.reflect.Proxy.newProxyInstance(request.getClassLoader(), new Class<?>[] {request},
                    (proxy, method, args) -> null);
        }

        Object normalFlow(Object req) throws Throwable {
            Method normalFlow = lifecycle.getDeclaredMethod("normalFlow", request);
            normalFlow.setAccessible(true);
            try {
                return normalFlow.invoke(instance, req);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        void takeTheOtherReturn() throws Exception {
            lifecycle.getField("other").setBoolean(null, true);
        }

        int bodyRuns() throws Exception {
            return lifecycle.getField("runs").getInt(null);
        }
    }

    private static byte[] plainClass(String name) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        StandIns.constructor(writer);
        writer.visitEnd();
        return writer.toByteArray();
    }

    private static byte[] anInterface(String name) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT, name, null,
                "java/lang/Object", null);
        writer.visitEnd();
        return writer.toByteArray();
    }

    /**
     * {@code protected final ExecutionFlow normalFlow(HttpRequest request)}: counts its runs in the static
     * {@code runs}, throws {@code IllegalStateException("flow failed")} for a null request, else returns a new
     * {@code ExecutionFlow} from one of two returns (the static {@code other} picks), so more than one is woven.
     */
    private static byte[] lifecycleClass() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return "java/lang/Object"; // the stand-ins are not loadable here
            }
        };
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, LIFECYCLE, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "runs", "I", null, null).visitEnd();
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "other", "Z", null, null).visitEnd();
        StandIns.constructor(writer);
        MethodVisitor m = writer.visitMethod(Opcodes.ACC_PROTECTED | Opcodes.ACC_FINAL, "normalFlow", NORMAL_FLOW,
                null, null);
        m.visitCode();
        m.visitFieldInsn(Opcodes.GETSTATIC, LIFECYCLE, "runs", "I");
        m.visitInsn(Opcodes.ICONST_1);
        m.visitInsn(Opcodes.IADD);
        m.visitFieldInsn(Opcodes.PUTSTATIC, LIFECYCLE, "runs", "I");
        Label present = new Label();
        m.visitVarInsn(Opcodes.ALOAD, 1);
        m.visitJumpInsn(Opcodes.IFNONNULL, present);
        m.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
        m.visitInsn(Opcodes.DUP);
        m.visitLdcInsn("flow failed");
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>",
                "(Ljava/lang/String;)V", false);
        m.visitInsn(Opcodes.ATHROW);
        m.visitLabel(present);
        Label second = new Label();
        m.visitFieldInsn(Opcodes.GETSTATIC, LIFECYCLE, "other", "Z");
        m.visitJumpInsn(Opcodes.IFNE, second);
        m.visitTypeInsn(Opcodes.NEW, FLOW);
        m.visitInsn(Opcodes.DUP);
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, FLOW, "<init>", "()V", false);
        m.visitInsn(Opcodes.ARETURN);
        m.visitLabel(second);
        m.visitTypeInsn(Opcodes.NEW, FLOW);
        m.visitInsn(Opcodes.DUP);
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, FLOW, "<init>", "()V", false);
        m.visitInsn(Opcodes.ARETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        // the deprecated no-argument overload, which must stay as it is
        MethodVisitor old = writer.visitMethod(Opcodes.ACC_PROTECTED | Opcodes.ACC_FINAL, "normalFlow",
                "()L" + FLOW + ";", null, null);
        old.visitCode();
        old.visitInsn(Opcodes.ACONST_NULL);
        old.visitInsn(Opcodes.ARETURN);
        old.visitMaxs(0, 0);
        old.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
