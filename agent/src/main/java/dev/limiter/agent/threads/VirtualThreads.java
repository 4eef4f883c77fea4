package dev.limiter.agent.threads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Whether the calling thread is virtual (Java 21+), i.e. will most likely serve one request only: its buffers are
 * borrowed from a {@link SlotPool} rather than kept on the thread. On Java 17 no thread is. {@code Thread.isVirtual}
 * is looked up when this class is first used, at the first request decided, not at start-up.
 */
public final class VirtualThreads {

    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private VirtualThreads() {
    }

    /** True if the calling thread is virtual. */
    public static boolean current() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable t) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException java17) {
            return null;
        }
    }
}
