package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.agent.testing.MapperOnlyDelegate;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import jakarta.servlet.ServletException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import jaxrstest.CatchAllMapper;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import weavingtest.FakeHttp;
import weavingtest.JakartaPassFilter;
import weavingtest.JavaxHello;
import weavingtest.TrickyServlet;
import weavingtest.TypedMapper;

/**
 * The ASM advice of the container entry points, loaded for real: each woven class is defined in its own class
 * loader (so the JVM verifies its stack map frames) and run against a recording bridge. Every path through a
 * method must check once, end the request exactly once, and leave the method's own control flow alone.
 */
class EntryPointWeaverTest {

    private final List<String> events = new ArrayList<>();
    private boolean reject;

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
        LimiterBridge.installMethods(null);
    }

    private void recordRequests() {
        LimiterBridge.install(new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                events.add("start");
                return reject;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                events.add("end");
            }
        });
    }

    private static Class<?> woven(Class<?> type, int targets) throws ClassNotFoundException {
        byte[] classFile = EntryPointWeaver.weave(ClassFiles.of(type), targets);
        assertThat(classFile).as("woven " + type.getName()).isNotNull();
        return ClassFiles.define(type.getName(), classFile);
    }

    private static Object newInstance(Class<?> type) throws ReflectiveOperationException {
        return type.getDeclaredConstructor().newInstance();
    }

    private static void service(Object servlet, FakeHttp http) throws Throwable {
        Method service = servlet.getClass().getMethod("service", jakarta.servlet.ServletRequest.class,
                jakarta.servlet.ServletResponse.class);
        try {
            service.invoke(servlet, http.request, http.response);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static FakeHttp traced(String path) {
        FakeHttp http = new FakeHttp("jakarta.servlet", path);
        http.attributes.put("trace", new ArrayList<String>());
        return http;
    }

    @SuppressWarnings("unchecked")
    private static List<String> trace(FakeHttp http) {
        return (List<String>) http.attributes.get("trace");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/early    | early",
        "/finally  | try, finally",
        "/caught   | caught own, synchronized true, finally, end of body",
        "/plain    | synchronized true, finally, end of body",
    })
    void everyWayOutOfTheBodyEndsTheRequestOnce(String path, String expected) throws Throwable {
        recordRequests();
        Object servlet = newInstance(woven(TrickyServlet.class, WeaveTarget.named("servlet-jakarta").bit));
        FakeHttp http = traced(path);
        service(servlet, http);
        assertThat(String.join(", ", trace(http))).isEqualTo(expected);
        assertThat(events).containsExactly("start", "end");
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void aThrowingBodyEndsTheRequestAndTheExceptionReachesTheCaller() throws Throwable {
        recordRequests();
        Object servlet = newInstance(woven(TrickyServlet.class, WeaveTarget.named("servlet-jakarta").bit));
        FakeHttp http = traced("/throw");
        assertThatThrownBy(() -> service(servlet, http)).isInstanceOf(ServletException.class).hasMessage("boom");
        assertThat(trace(http)).containsExactly("finally");
        assertThat(events).containsExactly("start", "end");
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void aRejectionSkipsTheBodyAndStillEndsTheRequest() throws Throwable {
        recordRequests();
        reject = true;
        Object servlet = newInstance(woven(TrickyServlet.class, WeaveTarget.named("servlet-jakarta").bit));
        FakeHttp http = traced("/plain");
        service(servlet, http);
        assertThat(trace(http)).isEmpty();
        assertThat(events).containsExactly("start", "end");
    }

    @Test
    void withoutADelegateTheWovenServletJustRuns() throws Throwable {
        Object servlet = newInstance(woven(TrickyServlet.class, WeaveTarget.named("servlet-jakarta").bit));
        FakeHttp http = traced("/plain");
        service(servlet, http);
        assertThat(trace(http)).containsExactly("synchronized true", "finally", "end of body");
    }

    @Test
    void aFilterAndAJavaxServletAreWovenInTheirNamespaceOnly() throws Throwable {
        byte[] filter = EntryPointWeaver.weave(ClassFiles.of(JakartaPassFilter.class), WeaveTarget.named("servlet-jakarta").bit);
        assertThat(mentions(filter, "servletEnter")).isTrue();
        ClassFiles.define(JakartaPassFilter.class.getName(), filter); // verifies
        // a javax servlet offered as jakarta has no jakarta entry point: nothing to change
        assertThat(EntryPointWeaver.weave(ClassFiles.of(JavaxHello.class), WeaveTarget.named("servlet-jakarta").bit)).isNull();
        byte[] javax = EntryPointWeaver.weave(ClassFiles.of(javax.servlet.http.HttpServlet.class),
                WeaveTarget.named("servlet-javax").bit);
        assertThat(mentions(javax, "servletEnter")).isTrue();
        ClassFiles.define(javax.servlet.http.HttpServlet.class.getName(), javax); // verifies
        // and jakarta's HttpServlet offered as javax has nothing to weave either
        assertThat(EntryPointWeaver.weave(ClassFiles.of(jakarta.servlet.http.HttpServlet.class),
                WeaveTarget.named("servlet-javax").bit)).isNull();
    }

    @Test
    void aClassFileWithoutStackMapFramesIsWovenWithoutFrames() throws Throwable {
        recordRequests();
        Object servlet = newInstance(ClassFiles.define("weavingtest.OldServlet",
                EntryPointWeaver.weave(java5Servlet(), WeaveTarget.named("servlet-jakarta").bit)));
        FakeHttp http = traced("/old");
        service(servlet, http);
        assertThat(http.attributes).containsEntry("old", "ran");
        assertThat(events).containsExactly("start", "end");
    }

    @Test
    void aMapperHandsBackTheLimitersResponseForARejectionAndMapsEverythingElse() throws Exception {
        Response ours = Response.status(429).build();
        IllegalStateException rejection = new IllegalStateException("rejected");
        LimiterBridge.installMethods(new MapperOnlyDelegate(exception -> exception == rejection ? ours : null));
        @SuppressWarnings("unchecked")
        ExceptionMapper<Throwable> typed = (ExceptionMapper<Throwable>) newInstance(
                woven(TypedMapper.class, WeaveTarget.named("mapper-jakarta").bit));
        assertThat(typed.toResponse(rejection)).isSameAs(ours);
        assertThat(typed.toResponse(new IllegalStateException("conflict")).getStatus()).isEqualTo(409);
        @SuppressWarnings("unchecked")
        ExceptionMapper<Throwable> catchAll = (ExceptionMapper<Throwable>) newInstance(
                woven(CatchAllMapper.class, WeaveTarget.named("mapper-jakarta").bit));
        assertThat(catchAll.toResponse(rejection)).isSameAs(ours);
        assertThat(catchAll.toResponse(new RuntimeException()).getStatus()).isEqualTo(500);
    }

    @Test
    void onlyTheTypedMethodOfAMapperIsWovenNotItsBridge() {
        assertThat(weaves(Opcodes.ACC_PUBLIC, "toResponse",
                "(Ljava/lang/IllegalStateException;)Ljakarta/ws/rs/core/Response;", WeaveTarget.named("mapper-jakarta").bit))
                .isTrue();
        assertThat(weaves(Opcodes.ACC_PUBLIC | Opcodes.ACC_BRIDGE | Opcodes.ACC_SYNTHETIC,
                "toResponse", "(Ljava/lang/Throwable;)Ljakarta/ws/rs/core/Response;", WeaveTarget.named("mapper-jakarta").bit))
                .isFalse();
        assertThat(weaves(Opcodes.ACC_PUBLIC, "toResponse",
                "(Ljava/lang/Throwable;I)Ljakarta/ws/rs/core/Response;", WeaveTarget.named("mapper-jakarta").bit)).isFalse();
        assertThat(weaves(Opcodes.ACC_PUBLIC, "toResponse",
                "(Ljava/lang/Throwable;)Ljakarta/ws/rs/core/Response;", WeaveTarget.named("servlet-jakarta").bit)).isFalse();
    }

    @Test
    void servletEntriesAreThePublicVoidRequestResponseMethods() {
        String jakarta2 = "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V";
        String jakarta3 = "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;"
                + "Ljakarta/servlet/FilterChain;)V";
        int pub = Opcodes.ACC_PUBLIC;
        int both = WeaveTarget.SERVLETS;
        assertThat(weaves(pub, "service", jakarta2, both)).isTrue();
        assertThat(weaves(pub, "doFilter", jakarta3, both)).isTrue();
        assertThat(weaves(pub, "doFilter", jakarta3, WeaveTarget.named("servlet-javax").bit)).isFalse();
        assertThat(weaves(Opcodes.ACC_PROTECTED, "service", jakarta2, both)).isFalse();
        assertThat(weaves(pub | Opcodes.ACC_STATIC, "service", jakarta2, both)).isFalse();
        assertThat(weaves(pub | Opcodes.ACC_ABSTRACT, "service", jakarta2, both)).isFalse();
        assertThat(weaves(pub, "doGet", jakarta2, both)).isFalse();
        assertThat(weaves(pub, "service",
                "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)I", both)).isFalse();
        assertThat(weaves(pub, "service",
                "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;JJ)V", both)).isFalse();
        assertThat(weaves(pub, "service",
                "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;J)V", both)).isTrue();
    }

    /** True if one of the targets {@code mask} weaves the method: its arguments in the order of a class file. */
    private static boolean weaves(int access, String name, String descriptor, int mask) {
        return WeaveTarget.weaving(mask, access, name, descriptor) != null;
    }

    private static boolean mentions(byte[] classFile, String name) {
        return new String(classFile, StandardCharsets.ISO_8859_1).contains(name);
    }

    /**
     * A servlet as a Java 5 compiler wrote it (class file 49: no stack map frames), with a branch in its body:
     * {@code if (request != null) request.setAttribute("old", "ran");}.
     */
    private static byte[] java5Servlet() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V1_5, Opcodes.ACC_PUBLIC, "weavingtest/OldServlet", null, "jakarta/servlet/GenericServlet",
                null);
        StandIns.constructor(writer, "jakarta/servlet/GenericServlet");
        MethodVisitor service = writer.visitMethod(Opcodes.ACC_PUBLIC, "service",
                "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V", null, null);
        service.visitCode();
        net.bytebuddy.jar.asm.Label end = new net.bytebuddy.jar.asm.Label();
        service.visitVarInsn(Opcodes.ALOAD, 1);
        service.visitJumpInsn(Opcodes.IFNULL, end);
        service.visitVarInsn(Opcodes.ALOAD, 1);
        service.visitLdcInsn("old");
        service.visitLdcInsn("ran");
        service.visitMethodInsn(Opcodes.INVOKEINTERFACE, "jakarta/servlet/ServletRequest", "setAttribute",
                "(Ljava/lang/String;Ljava/lang/Object;)V", true);
        service.visitLabel(end);
        service.visitInsn(Opcodes.RETURN);
        service.visitMaxs(0, 0);
        service.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
