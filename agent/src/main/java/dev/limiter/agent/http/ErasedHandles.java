package dev.limiter.agent.http;

import dev.limiter.agent.decision.RoutedPaths;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * How a binding holds its framework's methods: method handles found once per request class in the application's
 * own loader (the agent's loader cannot see the framework, and the bootstrap bridge hands its objects over as
 * {@code Object}), each adapted to erased types ({@code Object} in, JDK types out) so that it is called with
 * {@code invokeExact}, which neither boxes nor allocates.
 *
 * <p>Why handles and not a helper class compiled against the framework and defined in the application's loader:
 * the agent would have to inject classes into a foreign loader (as OpenTelemetry does), which needs reflection into
 * {@code ClassLoader} or {@code Unsafe}; handles need nothing but public methods.
 */
public final class ErasedHandles {

    private ErasedHandles() {
    }

    /** The class {@code name} as {@code loader} sees it, not initialised. */
    public static Class<?> type(String name, ClassLoader loader) throws ClassNotFoundException {
        return Class.forName(name, false, loader);
    }

    /** Every handle of {@code handles} with framework types erased to {@code Object} ({@link #erased}). */
    public static void eraseAll(MethodHandle[] handles) {
        for (int i = 0; i < handles.length; i++) {
            if (handles[i] != null) {
                handles[i] = handles[i].asType(erased(handles[i].type()));
            }
        }
    }

    /**
     * {@code h[slot]} adapted to exactly {@code (parameters) returns}, so that it is called with {@code invokeExact}
     * (a value returned to a {@code void} slot is dropped); null if {@code h} has no handle there.
     */
    public static MethodHandle at(MethodHandle[] h, int slot, Class<?> returns, Class<?>... parameters) {
        if (h == null || slot >= h.length || h[slot] == null) {
            return null;
        }
        MethodHandle handle = h[slot];
        if (returns == void.class && handle.type().returnType() != void.class) {
            handle = MethodHandles.dropReturn(handle);
        }
        return handle.asType(MethodType.methodType(returns, parameters));
    }

    /** {@code path} (a routed, normalised path getter) followed by {@link RoutedPaths#ruleView}. */
    public static MethodHandle ruleView(MethodHandle path) throws ReflectiveOperationException {
        return MethodHandles.filterReturnValue(path, MethodHandles.publicLookup().findStatic(RoutedPaths.class,
                "ruleView", MethodType.methodType(String.class, String.class)));
    }

    /**
     * {@code socketAddress} (a getter of the connection's remote {@link InetSocketAddress}) followed by its
     * {@link InetAddress}, null-safe: a {@link RequestView#PEER} whose text is {@link #inetPeerText}.
     */
    public static MethodHandle inetPeer(MethodHandle socketAddress) throws ReflectiveOperationException {
        return MethodHandles.filterReturnValue(socketAddress.asType(socketAddress.type()
                .changeReturnType(InetSocketAddress.class)), MethodHandles.lookup().findStatic(ErasedHandles.class,
                "addressOf", MethodType.methodType(InetAddress.class, InetSocketAddress.class)));
    }

    /** {@link InetAddress#getHostAddress} as a {@link RequestView#PEER_TEXT}. */
    public static MethodHandle inetPeerText() throws ReflectiveOperationException {
        return MethodHandles.publicLookup().findVirtual(InetAddress.class, "getHostAddress",
                MethodType.methodType(String.class));
    }

    private static InetAddress addressOf(InetSocketAddress remote) {
        return remote == null ? null : remote.getAddress();
    }

    /** Framework types become {@code Object}; JDK types, arrays and primitives stay as they are. */
    public static MethodType erased(MethodType type) {
        MethodType result = type;
        for (int i = 0; i < type.parameterCount(); i++) {
            if (!isJdk(type.parameterType(i))) {
                result = result.changeParameterType(i, Object.class);
            }
        }
        return isJdk(type.returnType()) ? result : result.changeReturnType(Object.class);
    }

    private static boolean isJdk(Class<?> type) {
        return type.isPrimitive() || type.isArray() || type.getClassLoader() == null;
    }
}
