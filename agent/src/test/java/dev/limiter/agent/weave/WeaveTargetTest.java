package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each description is all the transformer knows of its target: a class implementing one of its types and
 * declaring one of its methods, as the API declares it, must pass every check the transformer derives from the
 * description (the loader sees the API, the constant pool holds the name, the super types match) and be woven.
 * The API types are the real ones on the test class path, so a misspelt type, method or resource fails here.
 */
class WeaveTargetTest {

    private static final String PROBE = "probe/Implementation";

    @Test
    void eachTargetHasItsOwnBitAndTheMasksCoverThemAll() {
        int all = 0;
        for (WeaveTarget target : WeaveTarget.ALL) {
            assertThat(Integer.bitCount(target.bit)).as(target + " is one bit").isEqualTo(1);
            assertThat(all & target.bit).as(target + " shares no bit").isZero();
            all |= target.bit;
        }
        assertThat(WeaveTarget.EVERY).isEqualTo(all);
        assertThat(WeaveTarget.SERVLETS & WeaveTarget.MAPPERS).isZero();
        assertThat((WeaveTarget.SERVLETS | WeaveTarget.MAPPERS) & WeaveTarget.EXACT_CLASSES).isZero();
        // the bits SuperTypes and ApiVisibility cache per class and per loader (exact-class targets never walk)
        assertThat(WeaveTarget.EVERY & ~WeaveTarget.EXACT_CLASSES).as("cached boxed Integers")
                .isLessThanOrEqualTo(127);
    }

    /**
     * The targets woven in one named class (no API resource, no implementations): ReactiveEntryAdviceTest,
     * RequestScopeAdviceTest.
     */
    @Test
    void anExactClassTargetIsFoundByItsNameOnly() {
        String adapter = "org/springframework/web/server/adapter/HttpWebHandlerAdapter";
        assertThat(WeaveTarget.exactBits(adapter)).isEqualTo(WeaveTarget.named("webflux").bit);
        assertThat(WeaveTarget.exactBitsOfBinaryName(adapter.replace('/', '.'))).isEqualTo(WeaveTarget.named("webflux").bit);
        assertThat(WeaveTarget.exactBits(adapter + "Subclass")).isZero();
        assertThat(WeaveTarget.exactBits("javax/servlet/http/HttpServlet")).isZero();
        assertThat(WeaveTarget.named("webflux").apiResource).isNull();

        String context = "org/jboss/resteasy/reactive/common/core/AbstractResteasyReactiveContext";
        assertThat(WeaveTarget.exactBits(context)).isEqualTo(WeaveTarget.named("resteasy-reactive").bit);
        assertThat(WeaveTarget.exactBitsOfBinaryName(context.replace('/', '.')))
                .isEqualTo(WeaveTarget.named("resteasy-reactive").bit);
        assertThat(WeaveTarget.exactBits(
                "org/jboss/resteasy/reactive/server/vertx/VertxResteasyReactiveRequestContext")).isZero();
        assertThat(WeaveTarget.named("resteasy-reactive").apiResource).isNull();
    }

    /**
     * Every class woven by name that the test class path (the clients' and WebFlux's real jars) or this JDK holds
     * declares a method its target weaves: the transformer warns when one does not (a version that renamed it), so
     * a supported version must never be taken for one. The other stacks' classes run in the forked-server tests.
     */
    @Test
    void everyNamedClassThatIsHereIsWoven() throws Exception {
        List<String> found = new ArrayList<>();
        for (WeaveTarget target : WeaveTarget.ALL) {
            if ((target.bit & WeaveTarget.EXACT_CLASSES) == 0) {
                continue;
            }
            byte[] classFile;
            try (var in = ClassLoader.getSystemResourceAsStream(target.types[0] + ".class")) {
                if (in == null) {
                    continue;
                }
                classFile = in.readAllBytes();
            }
            found.add(target.id);
            assertThat(EntryPointWeaver.weave(classFile, target.bit)).as(target.id).isNotNull();
        }
        assertThat(found).contains("webflux", "webclient", "spring-reactor-request", "apache-async", "okhttp-call",
                "jdk-http-client", "url-connection");
    }

    /** A class of a library with a class woven by name is a sign of weaving; the JDK's and others' are not. */
    @Test
    void theLibrariesOfTheExactClassesAreTheirPackagesFirstThreeSegments() {
        assertThat(WeaveTarget.libraryOf("io/grpc/stub/ServerCalls$UnaryServerCallHandler")).isEqualTo("io/grpc/stub/");
        assertThat(WeaveTarget.libraryOf("okhttp3/internal/connection/RealCall"))
                .isEqualTo("okhttp3/internal/connection/");
        assertThat(WeaveTarget.libraryOf("a/B")).isEqualTo("a/");
        assertThat(WeaveTarget.libraryOf("Unpackaged")).as("never the empty prefix").isEqualTo("Unpackaged");
        assertThat(WeaveTarget.inExactLibrary("io/grpc/stub/AbstractStub")).isTrue();
        assertThat(WeaveTarget.inExactLibrary("org/springframework/web/reactive/DispatcherHandler")).isTrue();
        assertThat(WeaveTarget.inExactLibrary("io/grpc/Server")).as("only the stub package").isFalse();
        assertThat(WeaveTarget.inExactLibrary("com/acme/Main")).isFalse();
        assertThat(WeaveTarget.inExactLibrary("java/net/http/HttpClient")).as("a JDK class is woven directly").isFalse();
    }

    /**
     * grpc-java's two stub handlers: found by name, their {@code startCall(ServerCall, Metadata)} (and no other
     * overload) woven to call {@code GrpcBridge}, not WebFlux's bridge. The real classes run in GrpcLimiterTest.
     */
    @Test
    void theGrpcStubHandlersAreFoundByNameAndCallTheGrpcBridge() {
        String[] handlers = {"io/grpc/stub/ServerCalls$UnaryServerCallHandler",
            "io/grpc/stub/ServerCalls$StreamingServerCallHandler"};
        WeaveTarget[] targets = {WeaveTarget.named("grpc-unary"), WeaveTarget.named("grpc-streaming")};
        for (int i = 0; i < handlers.length; i++) {
            assertThat(WeaveTarget.exactBits(handlers[i])).isEqualTo(targets[i].bit);
            assertThat(WeaveTarget.exactBitsOfBinaryName(handlers[i].replace('/', '.'))).isEqualTo(targets[i].bit);
            assertThat(targets[i].apiResource).isNull();
            String startCall = "(Lio/grpc/ServerCall;Lio/grpc/Metadata;)Lio/grpc/ServerCall$Listener;";
            byte[] woven = EntryPointWeaver.weave(implementation("io/grpc/ServerCallHandler", "startCall",
                    startCall), targets[i].bit);
            assertThat(woven).isNotNull();
            String text = new String(woven, StandardCharsets.ISO_8859_1);
            assertThat(text).contains(ReactiveEntryAdvice.GRPC_BRIDGE).doesNotContain(ReactiveEntryAdvice.BRIDGE);
            assertThat(EntryPointWeaver.weave(implementation("io/grpc/ServerCallHandler", "startCall",
                    "(Lio/grpc/ServerCall;)Lio/grpc/ServerCall$Listener;"), targets[i].bit))
                    .as("another overload").isNull();
        }
        assertThat(WeaveTarget.exactBits("io/grpc/stub/ServerCalls")).isZero();
        assertThat(WeaveTarget.exactBits("io/grpc/internal/ServerImpl")).isZero();
    }

    /** Every registered target. */
    static List<WeaveTarget> everyTarget() {
        return List.of(WeaveTarget.ALL);
    }

    /** The targets found through their API's types (not woven in one named class). */
    static List<WeaveTarget> targetsFoundThroughTheirApi() {
        List<WeaveTarget> found = new ArrayList<>();
        for (WeaveTarget target : WeaveTarget.ALL) {
            if ((target.bit & WeaveTarget.EXACT_CLASSES) == 0) {
                found.add(target);
            }
        }
        return found;
    }

    @ParameterizedTest
    @MethodSource("targetsFoundThroughTheirApi")
    void aLoaderThatSeesTheApiSeesTheTarget(WeaveTarget target) throws Exception {
        List<String> typeFiles = new ArrayList<>();
        for (String type : target.types) {
            typeFiles.add(type + ".class");
        }
        assertThat(typeFiles).as("the resource is one of the matched types").contains(target.apiResource);
        Class<?> api = apiType(target.apiResource.substring(0, target.apiResource.length() - ".class".length()));
        URL jar = api.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader apiOnly = new URLClassLoader(new URL[] {jar}, null)) {
            assertThat(new ApiVisibility().of(apiOnly) & target.bit).isEqualTo(target.bit);
        }
    }

    @ParameterizedTest
    @MethodSource("targetsFoundThroughTheirApi")
    void everyTypeDeclaresAWovenMethodAndAnImplementationOfItIsWoven(WeaveTarget target) throws Exception {
        for (String type : target.types) {
            Class<?> api = apiType(type);
            // an abstract class (Apache's CloseableHttpClient) stands for its own implementations
            Class<?> implementation = api.isInterface() ? loadedImplementationOf(api) : api;
            assertThat(LoadedClasses.targetsOf(implementation)).as(type).isEqualTo(target.bit);
            int woven = 0;
            for (Method method : api.getDeclaredMethods()) {
                if (!List.of(target.methods).contains(method.getName()) || Modifier.isStatic(method.getModifiers())) {
                    continue;
                }
                String descriptor = Type.getMethodDescriptor(method);
                int access = method.getModifiers() & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED);
                byte[] classFile = implementation(type, api.isInterface(), access, method.getName(), descriptor);
                String what = type + "." + method.getName() + descriptor;

                assertThat(EntryPointNames.mayDeclare(classFile, target.bit)).as(what).isTrue();
                try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
                    assertThat(new SuperTypes().of(empty, PROBE, classFile)).as(what).isEqualTo(target.bit);
                }
                byte[] wovenFile = EntryPointWeaver.weave(classFile, target.bit);
                assertThat(wovenFile).as(what).isNotNull();
                assertThat(new String(wovenFile, StandardCharsets.ISO_8859_1)).contains(target.target.bridge != null
                        ? target.target.bridge : ServletEntryAdvice.BRIDGE);
                woven++;
            }
            assertThat(woven).as(type + " declares one of " + List.of(target.methods)).isPositive();
        }
    }

    @ParameterizedTest
    @MethodSource("everyTarget")
    void aClassWithoutTheMethodNamesIsPassedOverAndNotWoven(WeaveTarget target) {
        byte[] classFile = implementation(target.types[0], "unrelated", "()V");

        assertThat(EntryPointNames.mayDeclare(classFile, target.bit)).isFalse();
        assertThat(EntryPointWeaver.weave(classFile, target.bit)).isNull();
    }

    private static Class<?> apiType(String internalName) throws ClassNotFoundException {
        return Class.forName(internalName.replace('/', '.'), false, WeaveTargetTest.class.getClassLoader());
    }

    private static Class<?> loadedImplementationOf(Class<?> api) {
        return Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (proxy, method, args) -> null)
                .getClass();
    }

    /** A class implementing {@code type} with one public method of that name and descriptor (its body returns). */
    private static byte[] implementation(String type, String name, String descriptor) {
        return implementation(type, true, Opcodes.ACC_PUBLIC, name, descriptor);
    }

    /**
     * A class implementing interface {@code type}, or extending class {@code type}, with one method of that access,
     * name and descriptor (its body returns).
     */
    private static byte[] implementation(String type, boolean isInterface, int access, String name,
            String descriptor) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, PROBE, null,
                isInterface ? "java/lang/Object" : type, isInterface ? new String[] {type} : null);
        MethodVisitor method = writer.visitMethod(access, name, descriptor, null, null);
        method.visitCode();
        if (Type.getReturnType(descriptor).getSort() == Type.VOID) {
            method.visitInsn(Opcodes.RETURN);
        } else {
            method.visitInsn(Opcodes.ACONST_NULL);
            method.visitInsn(Opcodes.ARETURN);
        }
        method.visitMaxs(0, 0);
        method.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
