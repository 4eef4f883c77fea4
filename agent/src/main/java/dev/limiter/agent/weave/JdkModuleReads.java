package dev.limiter.agent.weave;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.bootstrap.LimiterBridge;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lets the JDK modules whose classes the agent weaves (an HTTP client's) read the unnamed module of the bootstrap
 * class path, where the bridges live. A named module reads only what it declares; without this, the first call of
 * a woven JDK method would fail to link its bridge call. Done as the first such class loads, before its woven
 * code is defined, so none can run first, and never in a JVM that loads none; a module the runtime lacks (a
 * {@code jlink} image without {@code java.net.http}) is passed over.
 */
final class JdkModuleReads {

    private static volatile Instrumentation inst;
    private static volatile String[] modules = new String[0];
    private static volatile ThrottledLog log;
    /** 0: not tried yet; 1: every module reads the bridges' module; -1: that failed or cannot be done here. */
    private static volatile int state;

    private JdkModuleReads() {
    }

    /** Remembers what {@link #ensure} needs; nothing changes yet (a JVM that loads no such class pays nothing). */
    static void prepare(Instrumentation instrumentation, String[] jdkModules, ThrottledLog errors) {
        inst = instrumentation;
        modules = jdkModules;
        log = errors;
    }

    /**
     * True once every module of the woven JDK classes that this runtime has reads the bridges' module, doing it the
     * first time (called as the first such class loads, before its woven code can run). False if it failed or
     * {@link #prepare} was not called: then no JDK class is woven.
     */
    static boolean ensure() {
        int now = state;
        if (now != 0) {
            return now > 0;
        }
        synchronized (JdkModuleReads.class) {
            if (state == 0) {
                state = addReads() ? 1 : -1;
            }
            return state > 0;
        }
    }

    private static boolean addReads() {
        Instrumentation instrumentation = inst;
        Module bridges = LimiterBridge.class.getModule();
        if (instrumentation == null || bridges.isNamed() || LimiterBridge.class.getClassLoader() != null) {
            return false; // the bridges are not on the bootstrap class path (tests): JDK code could not find them
        }
        for (String name : modules) {
            Optional<Module> module = ModuleLayer.boot().findModule(name);
            if (module.isEmpty() || module.get().canRead(bridges)) {
                continue;
            }
            try {
                instrumentation.redefineModule(module.get(), Set.of(bridges), Map.of(), Map.of(), Set.of(),
                        Map.of());
            } catch (Throwable t) {
                log.warn(Warning.WEAVING,
                        "limiter: cannot let module " + name + " reach the agent; its calls are not limited", t);
                return false;
            }
        }
        return true;
    }
}
