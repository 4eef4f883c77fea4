package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.Opcodes;

/**
 * The library entry points woven with ASM, one constant per API generation, each the whole description of its
 * weave (as OpenTelemetry's {@code TypeInstrumentation} is): the types whose implementations it matches, the
 * class file that tells a loader can see its API, the methods it weaves and the advice it weaves into them.
 * {@link ApiVisibility}, {@link EntryPointNames}, {@link SuperTypes}, {@link LoadedClasses} and
 * {@link EntryPointWeaver} derive all they check from these constants, so a new target is one constant more.
 *
 * <p>Each target has a bit ({@code 1 << ordinal}), so "which targets does this class implement" and "which APIs
 * does this loader see" are a small {@code int} that is cached per class name and per loader without allocation
 * (boxed values up to 127 are the JDK's cached {@code Integer}s; only the servlet and mapper bits are cached, the
 * exact-class targets are found by name). A loader that cannot see a target's API can
 * hold no implementation of it, so the same bits answer both questions.
 *
 * <p>Why data and not a subclass or lambda per constant: every class the application loads is checked against
 * these descriptions, and a constant-specific body or lambda is one more class loaded (or spun) on the
 * application's start-up thread. For the same reason the advice is named here ({@link #advice}) but created by
 * {@link EntryPointWeaver}: code here that creates it would make the verifier load the advice classes with this
 * enum, at the first class the application loads, instead of with the first class woven.
 */
enum WeaveTarget {

    /** Servlet 2.x-4: {@code service} and {@code doFilter} of every servlet and filter. */
    SERVLET_JAVAX(types("javax/servlet/Servlet", "javax/servlet/Filter"), "javax/servlet/Servlet.class",
            names("service", "doFilter"), Opcodes.ACC_PUBLIC, Opcodes.ACC_STATIC, Advice.SERVLET,
            "(Ljavax/servlet/ServletRequest;Ljavax/servlet/ServletResponse;"),
    /** Servlet 5-6.1, the same in the {@code jakarta} namespace. */
    SERVLET_JAKARTA(types("jakarta/servlet/Servlet", "jakarta/servlet/Filter"), "jakarta/servlet/Servlet.class",
            names("service", "doFilter"), Opcodes.ACC_PUBLIC, Opcodes.ACC_STATIC, Advice.SERVLET,
            "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;"),
    /**
     * JAX-RS 1-2.x: {@code toResponse} of every exception mapper, the typed method only (its erased bridge
     * calls it, and weaving both would answer twice).
     */
    MAPPER_JAVAX(types("javax/ws/rs/ext/ExceptionMapper"), "javax/ws/rs/ext/ExceptionMapper.class",
            names("toResponse"), 0, Opcodes.ACC_STATIC | Opcodes.ACC_BRIDGE, Advice.MAPPER, "(L"),
    /** JAX-RS 3-4, the same in the {@code jakarta} namespace. */
    MAPPER_JAKARTA(types("jakarta/ws/rs/ext/ExceptionMapper"), "jakarta/ws/rs/ext/ExceptionMapper.class",
            names("toResponse"), 0, Opcodes.ACC_STATIC | Opcodes.ACC_BRIDGE, Advice.MAPPER, "(L"),
    /**
     * Spring WebFlux 6-7 (Boot 3-4), any server: {@code HttpWebHandlerAdapter.handle(ServerHttpRequest,
     * ServerHttpResponse)}, that one class only ({@link #exactBits}): no super-type walk and no visibility check
     * (no api resource), so a WebFlux application's many {@code handle} methods cost nothing.
     */
    WEBFLUX(types("org/springframework/web/server/adapter/HttpWebHandlerAdapter"), null, names("handle"),
            Opcodes.ACC_PUBLIC, Opcodes.ACC_STATIC, Advice.REACTIVE,
            "(Lorg/springframework/http/server/reactive/ServerHttpRequest;"
                    + "Lorg/springframework/http/server/reactive/ServerHttpResponse;)Lreactor/core/publisher/Mono;"),
    /**
     * grpc-java (any transport): {@code startCall(ServerCall, Metadata)} of the stub's handler of unary and
     * server-streaming methods, the one class every generated or {@code ServerCalls.asyncUnaryCall}-bound method
     * of those kinds goes through, once per call and after the server's interceptors ({@link #exactBits}).
     */
    GRPC_UNARY(types("io/grpc/stub/ServerCalls$UnaryServerCallHandler"), null, names("startCall"),
            Opcodes.ACC_PUBLIC, Opcodes.ACC_STATIC, Advice.GRPC, GrpcDescriptor.START_CALL),
    /** grpc-java: the same for the stub's handler of client-streaming and bidirectional methods. */
    GRPC_STREAMING(types("io/grpc/stub/ServerCalls$StreamingServerCallHandler"), null, names("startCall"),
            Opcodes.ACC_PUBLIC, Opcodes.ACC_STATIC, Advice.GRPC, GrpcDescriptor.START_CALL),
    /**
     * RESTEasy Reactive (Quarkus REST), any version with this class: {@code AbstractResteasyReactiveContext.run()},
     * which runs a request's handler chain (the resource method included) on the event loop or, after a
     * hand-off, on a worker thread. Not a check: it makes the request context the thread's current request, so
     * woven resource methods ({@code jaxrs:} rules) key on the Vert.x request. One named class, like
     * {@link #WEBFLUX}.
     */
    RESTEASY_REACTIVE(types("org/jboss/resteasy/reactive/common/core/AbstractResteasyReactiveContext"), null,
            names("run"), Opcodes.ACC_PUBLIC, Opcodes.ACC_STATIC, Advice.REQUEST_SCOPE, "()V"),
    /**
     * Vert.x Web 4.5 (Quarkus, any Vert.x Web application): {@code RoutingContextImpl.route()} (package-private),
     * which {@code RouterImpl.handle(HttpServerRequest)} calls once per request on the root router's new context,
     * before any route handler; a mounted sub-router gets a wrapper context, not this call ({@code http:} rules,
     * docs/agent.md "Quarkus and Vert.x"). One named class, like {@link #WEBFLUX}.
     */
    VERTX_WEB(types("io/vertx/ext/web/impl/RoutingContextImpl"), null, names("route"), 0, Opcodes.ACC_STATIC,
            Advice.ROUTING, "()V");

    /** The advice a target weaves, as constants (inlined: this class is never loaded). */
    static final class Advice {
        /** {@link ServletEntryAdvice}: void methods whose first two arguments are request and response. */
        static final int SERVLET = 0;
        /** {@link MapperEntryAdvice}: methods of one object argument (the exception) that return an object. */
        static final int MAPPER = 1;
        /** {@link ReactiveEntryAdvice}: (request, response) methods that return the exchange's publisher. */
        static final int REACTIVE = 2;
        /** {@link ReactiveEntryAdvice} calling {@code GrpcBridge}: (call, headers) methods returning a listener. */
        static final int GRPC = 3;
        /** {@link RequestScopeAdvice}: no-argument void runners whose receiver is the request. */
        static final int REQUEST_SCOPE = 4;
        /** {@link RoutingEntryAdvice}: a no-argument void method whose receiver is the routing context. */
        static final int ROUTING = 5;
    }

    /** The gRPC handler's method descriptor (a holder: an enum's constants cannot name its own static fields). */
    static final class GrpcDescriptor {
        static final String START_CALL = "(Lio/grpc/ServerCall;Lio/grpc/Metadata;)Lio/grpc/ServerCall$Listener;";
    }

    /** Every target, in bit order ({@code values()} copies its array on each call). */
    static final WeaveTarget[] ALL = values();
    static final int SERVLETS = SERVLET_JAVAX.bit | SERVLET_JAKARTA.bit;
    static final int MAPPERS = MAPPER_JAVAX.bit | MAPPER_JAKARTA.bit;
    /** Targets woven in one named class only, found by its name ({@link #exactBits}). */
    static final int EXACT_CLASSES = WEBFLUX.bit | GRPC_UNARY.bit | GRPC_STREAMING.bit | RESTEASY_REACTIVE.bit
            | VERTX_WEB.bit;

    /** This target's bit in the masks of targets. */
    final int bit = 1 << ordinal();
    /** Internal names ({@code a/b/C}) of the types whose implementations are woven. */
    final String[] types;
    /**
     * The class file a loader finds as a resource if it can see this target's API; null for the
     * {@link #EXACT_CLASSES} targets, which are found by their class name alone.
     */
    final String apiResource;
    /**
     * Names of the woven methods: a class whose constant pool holds none of them cannot declare one
     * ({@link EntryPointNames}).
     */
    final String[] methods;
    /** Access flags a woven method must have. */
    private final int requiredAccess;
    /** Access flags a woven method must not have; abstract and native methods have no body to weave. */
    private final int excludedAccess;
    /** The {@link Advice} woven into those methods. */
    final int advice;
    /** What a woven method's descriptor starts with: its leading parameter types. */
    final String descriptorStart;

    WeaveTarget(String[] types, String apiResource, String[] methods, int requiredAccess, int excludedAccess,
            int advice, String descriptorStart) {
        this.types = types;
        this.apiResource = apiResource;
        this.methods = methods;
        this.requiredAccess = requiredAccess;
        this.excludedAccess = excludedAccess | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE;
        this.advice = advice;
        this.descriptorStart = descriptorStart;
    }

    /** The first of the targets {@code mask} whose advice method {@code name} is, or null if none. */
    static WeaveTarget weaving(int mask, int access, String name, String descriptor) {
        for (WeaveTarget target : ALL) {
            if ((mask & target.bit) != 0 && target.weaves(access, name, descriptor)) {
                return target;
            }
        }
        return null;
    }

    /** True if this target weaves the method {@code name} with {@code access} and {@code descriptor}. */
    boolean weaves(int access, String name, String descriptor) {
        if ((access & (requiredAccess | excludedAccess)) != requiredAccess || !isOneOf(name, methods)
                || !descriptor.startsWith(descriptorStart)) {
            return false;
        }
        if (advice == Advice.REACTIVE || advice == Advice.GRPC || advice == Advice.REQUEST_SCOPE
                || advice == Advice.ROUTING) {
            return descriptor.length() == descriptorStart.length(); // the whole descriptor
        }
        if (advice == Advice.SERVLET) {
            // (request, response) or (request, response, chain), returning nothing
            return descriptor.endsWith(")V") && (descriptor.length() == descriptorStart.length() + 2
                    || isOneType(descriptor.substring(descriptorStart.length(), descriptor.length() - 2)));
        }
        int close = descriptor.indexOf(')');
        return isOneType(descriptor.substring(1, close)) && descriptor.charAt(close + 1) == 'L';
    }

    /** The bits of the target types named {@code internalName} ({@code a/b/C}), 0 if it is none. */
    static int bitOf(String internalName) {
        for (WeaveTarget target : ALL) {
            if (isOneOf(internalName, target.types)) {
                return target.bit;
            }
        }
        return 0;
    }

    /** The bits of the {@link #EXACT_CLASSES} targets woven in the class named {@code internalName}, else 0. */
    static int exactBits(String internalName) {
        for (WeaveTarget target : ALL) {
            if ((target.bit & EXACT_CLASSES) != 0 && target.types[0].equals(internalName)) {
                return target.bit;
            }
        }
        return 0;
    }

    /** {@link #exactBits} for a binary name ({@code a.b.C}), as {@link Class#getName()} gives it. */
    static int exactBitsOfBinaryName(String binaryName) {
        for (WeaveTarget target : ALL) {
            if ((target.bit & EXACT_CLASSES) != 0 && sameButSeparators(target.types[0], binaryName)) {
                return target.bit;
            }
        }
        return 0;
    }

    /** {@link #bitOf} for a binary name ({@code a.b.C}), as {@link Class#getName()} gives it. */
    static int bitOfBinaryName(String binaryName) {
        for (WeaveTarget target : ALL) {
            for (String type : target.types) {
                if (sameButSeparators(type, binaryName)) {
                    return target.bit;
                }
            }
        }
        return 0;
    }

    /** True if internal name {@code internal} ({@code a/b/C}) names binary name {@code binary} ({@code a.b.C}). */
    private static boolean sameButSeparators(String internal, String binary) {
        if (internal.length() != binary.length()) {
            return false;
        }
        for (int i = 0; i < internal.length(); i++) {
            char c = internal.charAt(i);
            if (c != binary.charAt(i) && !(c == '/' && binary.charAt(i) == '.')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isOneOf(String name, String[] names) {
        for (String candidate : names) {
            if (candidate.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** True if {@code descriptors} is exactly one field descriptor. */
    private static boolean isOneType(String descriptors) {
        int i = 0;
        while (i < descriptors.length() && descriptors.charAt(i) == '[') {
            i++;
        }
        if (i == descriptors.length()) {
            return false;
        }
        if (descriptors.charAt(i) == 'L') {
            return descriptors.indexOf(';') == descriptors.length() - 1;
        }
        return i == descriptors.length() - 1;
    }

    private static String[] types(String... internalNames) {
        return internalNames;
    }

    private static String[] names(String... methodNames) {
        return methodNames;
    }
}
