package dev.limiter.agent.http;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

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
