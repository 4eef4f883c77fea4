package dev.limiter.agent.grpc;

import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.http.RequestView;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The parts of grpc-java's API ({@code io.grpc}, grpc-api 1.x) the adapter uses, as method handles found once
 * per call class from the application's own loader: the agent's loader cannot see grpc-java, and the bootstrap
 * bridge hands its objects over as {@code Object}. Every handle is adapted to an erased type ({@code Object} in,
 * JDK types out) and called with {@code invokeExact}, which neither boxes nor allocates. The peer address is the
 * transport attribute {@code Grpc.TRANSPORT_ATTR_REMOTE_ADDR}, the same on grpc-netty, grpc-netty-shaded and
 * any other transport: nothing here names Netty.
 *
 * <p>Metadata keys ({@code Metadata.Key.of(name, ASCII_STRING_MARSHALLER)}) are made once per name and kept: a
 * lookup of an existing key reads a concurrent map without allocating. The two listener classes a call needs
 * ({@link GrpcListeners}) are defined in the application's loader the first time a rule matches a call there.
 *
 * <p>A grpc-java lacking one of these (older than any we know of) leaves {@link #supported} false; the reason is
 * logged once by the caller and calls run unlimited.
 */
final class GrpcApi extends RequestView {

    private static final ClassValue<GrpcApi> BY_CALL_CLASS = new ClassValue<>() {
        @Override
        protected GrpcApi computeValue(Class<?> type) {
            return new GrpcApi(type.getClassLoader());
        }
    };

    final boolean supported;
    /** Why not {@link #supported}, for the log; null if supported. */
    final Throwable problem;

    private final ClassLoader loader;
    private final MethodHandle descriptor;
    private final MethodHandle fullName;
    private final MethodHandle serviceName;
    private final MethodHandle remoteAddress;
    private final MethodHandle keyOf;
    private final MethodHandle metadataGet;
    private final MethodHandle metadataPut;
    private final MethodHandle newMetadata;
    private final MethodHandle withDescription;
    private final MethodHandle close;
    private final Object resourceExhausted;
    private final ConcurrentHashMap<String, Object> keys = new ConcurrentHashMap<>();
    private volatile GrpcListeners listeners;

    /** The API as the loader of {@code call}'s class sees it. */
    static GrpcApi of(Object call) {
        return BY_CALL_CLASS.get(call.getClass());
    }

    private GrpcApi(ClassLoader loader) {
        super("grpc-java", NO_PRINCIPAL | NO_PATH);
        this.loader = loader;
        MethodHandle[] h = new MethodHandle[10];
        Object[] status = new Object[1];
        Throwable failure = null;
        try {
            find(loader, h, status);
        } catch (Throwable t) {
            failure = t;
        }
        supported = failure == null;
        problem = failure;
        descriptor = h[0];
        fullName = h[1];
        serviceName = h[2];
        remoteAddress = h[3];
        keyOf = h[4];
        metadataGet = h[5];
        metadataPut = h[6];
        newMetadata = h[7];
        withDescription = h[8];
        close = h[9];
        resourceExhausted = status[0];
    }

    private static void find(ClassLoader loader, MethodHandle[] h, Object[] status) throws Throwable {
        HandleFinder f = new HandleFinder(loader, "io.grpc");
        h[0] = f.virtual("ServerCall", "getMethodDescriptor", "MethodDescriptor");
        h[1] = f.virtual("MethodDescriptor", "getFullMethodName", String.class);
        h[2] = f.virtual("MethodDescriptor", "getServiceName", String.class);
        Object remoteKey = f.constant("Grpc", "TRANSPORT_ATTR_REMOTE_ADDR", "Attributes$Key");
        h[3] = HandleFinder.then(f.virtual("ServerCall", "getAttributes", "Attributes"),
                MethodHandles.insertArguments(f.virtual("Attributes", "get", Object.class, "Attributes$Key"), 1,
                        remoteKey))
                .asType(MethodType.methodType(SocketAddress.class, f.type("ServerCall")));
        Object marshaller = f.constant("Metadata", "ASCII_STRING_MARSHALLER", "Metadata$AsciiMarshaller");
        h[4] = MethodHandles.insertArguments(f.function("Metadata$Key", "of", "Metadata$Key", String.class,
                "Metadata$AsciiMarshaller"), 1, marshaller);
        // the key's value type is a type variable, Object in the class file: read and written as String
        h[5] = f.virtual("Metadata", "get", Object.class, "Metadata$Key")
                .asType(MethodType.methodType(String.class, f.type("Metadata"), f.type("Metadata$Key")));
        h[6] = f.virtual("Metadata", "put", void.class, "Metadata$Key", Object.class)
                .asType(MethodType.methodType(void.class, f.type("Metadata"), f.type("Metadata$Key"), String.class));
        h[7] = f.constructor("Metadata");
        h[8] = f.virtual("Status", "withDescription", "Status", String.class);
        h[9] = f.virtual("ServerCall", "close", void.class, "Status", "Metadata");
        status[0] = f.constant("Status", "RESOURCE_EXHAUSTED", "Status");
        ErasedHandles.eraseAll(h);
    }

    static Class<?> type(String name, ClassLoader loader) throws ClassNotFoundException {
        return ErasedHandles.type(name, loader);
    }

    // ---- the call as the key reader sees it: the request is the thread's GrpcCallScratch (call and metadata)

    /** The last value of metadata entry {@code name} of the call being decided, or null. */
    @Override
    public String header(Object scratch, String name) throws Throwable {
        return metadata(((GrpcCallScratch) scratch).headers(), name);
    }

    /** The metadata entry's value: grpc-java keeps the last of repeated entries, a proxy's own. */
    @Override
    public String headerLines(Object scratch, String name) throws Throwable {
        return header(scratch, name);
    }

    /** The transport's remote {@link InetAddress}, or null. */
    @Override
    public Object peer(Object scratch) throws Throwable {
        SocketAddress remote = remoteAddress(((GrpcCallScratch) scratch).call());
        return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }

    @Override
    public String peerText(Object peer) {
        return ((InetAddress) peer).getHostAddress();
    }

    // ---- the call

    /** The call's {@code MethodDescriptor}: one object per method, the same for every call of it. */
    Object descriptor(Object call) throws Throwable {
        return descriptor.invokeExact(call);
    }

    /** {@code acme.Orders/Create}. */
    String fullName(Object descriptor) throws Throwable {
        return (String) fullName.invokeExact(descriptor);
    }

    /** {@code acme.Orders}: the full service name, kept by the descriptor. */
    String serviceName(Object descriptor) throws Throwable {
        return (String) serviceName.invokeExact(descriptor);
    }

    /** The transport's remote address of the call, or null. */
    SocketAddress remoteAddress(Object call) throws Throwable {
        return (SocketAddress) remoteAddress.invokeExact(call);
    }

    /** The last value of the ASCII metadata entry {@code name} (any case), or null. */
    String metadata(Object headers, String name) throws Throwable {
        return (String) metadataGet.invokeExact(headers, key(name));
    }

    private Object key(String name) throws Throwable {
        Object key = keys.get(name);
        if (key == null) {
            key = keyOf.invokeExact(name);
            Object earlier = keys.putIfAbsent(name, key);
            if (earlier != null) {
                key = earlier;
            }
        }
        return key;
    }

    // ---- the rejection

    /** A new, empty {@code Metadata} (the rejection's trailers). */
    Object newMetadata() throws Throwable {
        return newMetadata.invokeExact();
    }

    /** Puts an ASCII entry into {@code metadata}. */
    void put(Object metadata, String name, String value) throws Throwable {
        metadataPut.invokeExact(metadata, key(name), value);
    }

    /** {@code call.close(Status.RESOURCE_EXHAUSTED.withDescription(description), trailers)}. */
    void closeExhausted(Object call, String description, Object trailers) throws Throwable {
        Object status = withDescription.invokeExact(resourceExhausted, description);
        close.invokeExact(call, status, trailers);
    }

    /** The listener classes in this loader, defined at the first call that needs them. */
    GrpcListeners listeners() throws Throwable {
        GrpcListeners current = listeners;
        if (current == null) {
            synchronized (this) {
                current = listeners;
                if (current == null) {
                    current = GrpcListeners.define(loader);
                    listeners = current;
                }
            }
        }
        return current;
    }
}
