package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.ReactiveBridge;
import dev.limiter.bootstrap.ReactiveDelegate;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
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
 * The ASM advice of the WebFlux entry point, loaded and run for real against stand-ins of the three types its
 * bytecode names (generated under Spring's and Reactor's names in a loader of their own, which defines them before
 * asking its parent: the test class path has the real ones too): the rejection replaces the handler, a held token wraps every return, a throw gives the token
 * back once, and a failing delegate leaves the exchange alone. The real classes run in the forked-server tests
 * (SpringBoot3/4WebfluxLimiterTest).
 */
class ReactiveEntryAdviceTest {

    private static final String ADAPTER = "org/springframework/web/server/adapter/HttpWebHandlerAdapter";
    private static final String REQUEST = "org/springframework/http/server/reactive/ServerHttpRequest";
    private static final String RESPONSE = "org/springframework/http/server/reactive/ServerHttpResponse";
    private static final String MONO = "reactor/core/publisher/Mono";

    private final List<String> calls = new ArrayList<>();

    @AfterEach
    void uninstall() {
        ReactiveBridge.install(null);
    }

    @Test
    void aRejectionIsReturnedInsteadOfRunningTheHandler() throws Throwable {
        Stand stand = new Stand();
        Object rejection = stand.newMono();
        install(new Recording() {
            @Override
            public Object onExchangeStart(Object request, Object response) {
                calls.add("start");
                return rejection;
            }
        });
        assertThat(stand.handle(stand.request(), stand.response())).isSameAs(rejection);
        assertThat(stand.bodyRuns()).isZero();
        assertThat(calls).containsExactly("start");
    }

    @Test
    void anExchangeHoldingNothingRunsUntouched() throws Throwable {
        Stand stand = new Stand();
        install(new Recording());
        Object result = stand.handle(stand.request(), stand.response());
        assertThat(result.getClass().getName()).isEqualTo(MONO.replace('/', '.'));
        assertThat(stand.bodyRuns()).isEqualTo(1);
        assertThat(calls).containsExactly("start");
    }

    @Test
    void aHeldTokenWrapsTheReturnedPublisher() throws Throwable {
        Stand stand = new Stand();
        Object wrapped = stand.newMono();
        install(new Recording() {
            @Override
            public Object onExchangeStart(Object request, Object response) {
                calls.add("start");
                ReactiveBridge.hold("token");
                return null;
            }

            @Override
            public Object onExchangeReturn(Object result, Object token) {
                calls.add("return " + token);
                return wrapped;
            }
        });
        assertThat(stand.handle(stand.request(), stand.response())).isSameAs(wrapped);
        assertThat(stand.bodyRuns()).isEqualTo(1);
        // the next exchange on this thread holds nothing: nothing is wrapped or released for it
        install(new Recording());
        stand.handle(stand.request(), stand.response());
        assertThat(calls).containsExactly("start", "return token", "start");
    }

    @Test
    void aHandlerThatThrowsGivesTheTokenBackOnceAndTheExceptionPropagates() throws Throwable {
        Stand stand = new Stand();
        install(new Recording() {
            @Override
            public Object onExchangeStart(Object request, Object response) {
                calls.add("start");
                ReactiveBridge.hold("token");
                return null;
            }
        });
        assertThatThrownBy(() -> stand.handle(null, stand.response()))
                .isInstanceOf(IllegalStateException.class).hasMessage("handler failed");
        assertThat(calls).containsExactly("start", "failed token");
    }

    @Test
    void aFailingDelegateLeavesTheExchangeAlone() throws Throwable {
        Stand stand = new Stand();
        long errors = LimiterBridge.internalErrors();
        install(new Recording() {
            @Override
            public Object onExchangeStart(Object request, Object response) {
                throw new IllegalStateException("the agent failed");
            }
        });
        Object result = stand.handle(stand.request(), stand.response());
        assertThat(result.getClass().getName()).isEqualTo(MONO.replace('/', '.'));
        assertThat(stand.bodyRuns()).isEqualTo(1);
        assertThat(LimiterBridge.internalErrors()).isEqualTo(errors + 1);
    }

    private void install(ReactiveDelegate delegate) {
        ReactiveBridge.install(delegate);
    }

    /** Records what the bridge asks; holds nothing and rejects nothing unless overridden. */
    private class Recording implements ReactiveDelegate {

        @Override
        public Object onExchangeStart(Object request, Object response) {
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

    /** The stand-in types and the woven adapter, each in one fresh loader. */
    private static final class Stand {

        private final Class<?> adapter;
        private final Class<?> mono;
        private final Class<?> request;
        private final Class<?> response;
        private final Object instance;

        Stand() throws Exception {
            Map<String, byte[]> classes = new HashMap<>();
            classes.put(MONO, plainClass(MONO));
            classes.put(REQUEST, anInterface(REQUEST));
            classes.put(RESPONSE, anInterface(RESPONSE));
            byte[] woven = EntryPointWeaver.weave(adapterClass(), WeaveTarget.named("webflux").bit);
            assertThat(woven).as("woven").isNotNull();
            classes.put(ADAPTER, woven);
            // the stand-ins first: the test class path has the real Spring and Reactor (for the WebClient test)
            ClassLoader loader = new ClassLoader(ReactiveEntryAdviceTest.class.getClassLoader()) {
                @Override
                protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                    synchronized (getClassLoadingLock(name)) {
                        Class<?> loaded = findLoadedClass(name);
                        if (loaded != null) {
                            return loaded;
                        }
                        byte[] file = classes.get(name.replace('.', '/'));
                        return file == null ? super.loadClass(name, resolve) : defineClass(name, file, 0, file.length);
                    }
                }
            };
            adapter = loader.loadClass(ADAPTER.replace('/', '.'));
            mono = loader.loadClass(MONO.replace('/', '.'));
            request = loader.loadClass(REQUEST.replace('/', '.'));
            response = loader.loadClass(RESPONSE.replace('/', '.'));
            instance = adapter.getConstructor().newInstance();
        }

        Object newMono() throws Exception {
            return mono.getConstructor().newInstance();
        }

        Object request() {
            return java.lang.reflect.Proxy.newProxyInstance(request.getClassLoader(), new Class<?>[] {request},
                    (proxy, method, args) -> null);
        }

        Object response() {
            return java.lang.reflect.Proxy.newProxyInstance(response.getClassLoader(), new Class<?>[] {response},
                    (proxy, method, args) -> null);
        }

        Object handle(Object req, Object res) throws Throwable {
            Method handle = adapter.getMethod("handle", request, response);
            try {
                return handle.invoke(instance, req, res);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        int bodyRuns() throws Exception {
            return adapter.getField("runs").getInt(null);
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
     * {@code public Mono handle(ServerHttpRequest request, ServerHttpResponse response)}: counts its runs in the
     * static {@code runs}, throws {@code IllegalStateException("handler failed")} for a null request, else returns
     * a new {@code Mono} from one of two returns (so more than one return is woven).
     */
    private static byte[] adapterClass() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return "java/lang/Object"; // the stand-ins are not loadable here
            }
        };
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, ADAPTER, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "runs", "I", null, null).visitEnd();
        StandIns.constructor(writer);
        MethodVisitor m = writer.visitMethod(Opcodes.ACC_PUBLIC, "handle",
                "(L" + REQUEST + ";L" + RESPONSE + ";)L" + MONO + ";", null, null);
        m.visitCode();
        m.visitFieldInsn(Opcodes.GETSTATIC, ADAPTER, "runs", "I");
        m.visitInsn(Opcodes.ICONST_1);
        m.visitInsn(Opcodes.IADD);
        m.visitFieldInsn(Opcodes.PUTSTATIC, ADAPTER, "runs", "I");
        Label present = new Label();
        m.visitVarInsn(Opcodes.ALOAD, 1);
        m.visitJumpInsn(Opcodes.IFNONNULL, present);
        m.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
        m.visitInsn(Opcodes.DUP);
        m.visitLdcInsn("handler failed");
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>",
                "(Ljava/lang/String;)V", false);
        m.visitInsn(Opcodes.ATHROW);
        m.visitLabel(present);
        Label second = new Label();
        m.visitVarInsn(Opcodes.ALOAD, 2);
        m.visitJumpInsn(Opcodes.IFNULL, second);
        m.visitTypeInsn(Opcodes.NEW, MONO);
        m.visitInsn(Opcodes.DUP);
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, MONO, "<init>", "()V", false);
        m.visitInsn(Opcodes.ARETURN);
        m.visitLabel(second);
        m.visitTypeInsn(Opcodes.NEW, MONO);
        m.visitInsn(Opcodes.DUP);
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, MONO, "<init>", "()V", false);
        m.visitInsn(Opcodes.ARETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
