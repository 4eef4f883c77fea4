package dev.limiter.agent.weave;

import java.lang.instrument.Instrumentation;

/**
 * Whether the JVM defined application classes before premain ran: a Java 24+ AOT cache ({@code -XX:AOTCache})
 * loads and links the classes it holds as the JVM starts, before any agent, so the transformer never sees those
 * classes load. The start-up then treats them as a late attach treats the loaded classes: the ones it weaves are
 * retransformed at installation, and a rules file that may name classes is parsed first.
 *
 * <p>Cheap: it looks at the classes the system loader has initiated, a handful in a JVM without such a cache.
 * Another agent given before this one has its premain class there too: the start-up then also takes the late
 * attach's path, which costs a little time and never a check.
 */
public final class PreloadedClasses {

    private PreloadedClasses() {
    }

    /** True if the system class loader has defined a class other than the agent's own premain class. */
    public static boolean found(Instrumentation inst) {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        for (Class<?> type : inst.getInitiatedClasses(system)) {
            if (type.getClassLoader() == system && !type.getName().startsWith("dev.limiter.agent.LimiterAgent")) {
                return true;
            }
        }
        return false;
    }
}
