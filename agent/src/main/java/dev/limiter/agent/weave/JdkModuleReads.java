package dev.limiter.agent.weave;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.bootstrap.LimiterBridge;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lets the JDK modules whose classes the agent weaves (an HTTP client's) read the unnamed module of the bootstrap
 * class path, where the bridges live. A named module reads only what it declares; without this, the first call of
 * a woven JDK method would fail to link its bridge call. Done before the transformer is installed, so no woven
 * JDK code can run first; a module the runtime lacks (a {@code jlink} image without {@code java.net.http}) is
 * passed over.
 */
final class JdkModuleReads {

    /** True once every module of the woven JDK classes that this runtime has reads the bridges' module. */
    private static volatile boolean ready;

    private JdkModuleReads() {
    }

    /** True if woven JDK classes can reach the bridges: until then, and if that failed, none is woven. */
    static boolean ready() {
        return ready;
    }

    static void add(Instrumentation inst, String[] modules, ThrottledLog log) {
        Module bridges = LimiterBridge.class.getModule();
        if (bridges.isNamed() || LimiterBridge.class.getClassLoader() != null) {
            return; // the bridges are not on the bootstrap class path (tests): JDK code could not find them
        }
        boolean all = true;
        for (String name : modules) {
            Optional<Module> module = ModuleLayer.boot().findModule(name);
            if (module.isEmpty() || module.get().canRead(bridges)) {
                continue;
            }
            try {
                inst.redefineModule(module.get(), Set.of(bridges), Map.of(), Map.of(), Set.of(), Map.of());
            } catch (Throwable t) {
                all = false;
                log.warn("limiter: cannot let module " + name + " reach the agent; its calls are not limited", t);
            }
        }
        ready = all;
    }
}
