package classcheck;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A program that runs long enough for the agent's class-name check, then prints what JMX says of its rules:
 * {@code NoClassLoaded <id>=<value>} for each rule id given (ids other than {@code right} are awaited until true).
 * Then it loads {@link LateLoaded} and prints at once what JMX says of rule {@code late}, which names that class.
 */
public final class WaitingMain {

    private WaitingMain() {
    }

    public static void main(String[] args) throws Exception {
        work();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        long deadline = System.nanoTime() + 20_000_000_000L;
        StringBuilder line = new StringBuilder();
        for (String id : args) {
            ObjectName name = new ObjectName("dev.limiter:type=Rule,name=" + id);
            Object value = null;
            while (System.nanoTime() < deadline) {
                Thread.sleep(200);
                if (server.isRegistered(name)) {
                    value = server.getAttribute(name, "NoClassLoaded");
                    if (Boolean.TRUE.equals(value) || id.equals("right")) {
                        break;
                    }
                }
            }
            line.append(" ").append(id).append('=').append(value);
        }
        System.out.println("NoClassLoaded" + line);
        LateLoaded.work();
        System.out.println("after LateLoaded loaded: late="
                + server.getAttribute(new ObjectName("dev.limiter:type=Rule,name=late"), "NoClassLoaded"));
    }

    static void work() {
    }
}
