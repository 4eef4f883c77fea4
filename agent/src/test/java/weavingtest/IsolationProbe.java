package weavingtest;

/**
 * Main class run in a forked JVM with the packaged agent: prints what the application can see, one fact per
 * line, for {@code PackagedAgentJarLayoutTest}. It ends with a request through the bridge, as a server would
 * make on its first request: with HTTP-only rules the agent parses them on a daemon thread, and the request
 * waits for them, so the banner is out before this JVM exits.
 */
public final class IsolationProbe {

    private IsolationProbe() {
    }

    public static void main(String[] args) throws Exception {
        Class<?> bridge = Class.forName("dev.limiter.bootstrap.LimiterBridge");
        System.out.println("bridge-loader=" + bridge.getClassLoader());
        System.out.println("delegate-installed=" + (bridge.getMethod("delegate").invoke(null) != null));
        for (String name : new String[] {"dev.limiter.agent.startup.Startup", "dev.limiter.rules.RuleSet",
                "dev.limiter.shaded.bytebuddy.jar.asm.ClassReader", "net.bytebuddy.jar.asm.ClassReader",
                "dev.limiter.shaded.redis.clients.jedis.Jedis", "redis.clients.jedis.Jedis"}) {
            boolean visible;
            try {
                Class.forName(name);
                visible = true;
            } catch (ClassNotFoundException e) {
                visible = false;
            }
            System.out.println("visible " + name + "=" + visible);
        }
        System.out.println("resource inst=" + (IsolationProbe.class.getClassLoader()
                .getResource("dev/limiter/agent/startup/Startup.class") != null));
        boolean rejected = (Boolean) bridge.getMethod("servletEnter", Object.class, Object.class)
                .invoke(null, new Object(), new Object());
        bridge.getMethod("servletExit").invoke(null);
        System.out.println("first-request-rejected=" + rejected);
    }
}
