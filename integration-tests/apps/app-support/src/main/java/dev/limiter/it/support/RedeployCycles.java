package dev.limiter.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Deploys a web application, exercises it and undeploys it, {@code cycles} times in one running container, keeping
 * only a weak reference to each undeployed application's class loader. Each cycle sends requests to
 * {@code /app/api/items/<cycle>} until one is answered 429 (when the agent has a rule for them), each on a connection
 * of its own that the request closes (a kept-alive connection pins the last application it served in Jetty 12: its
 * {@code HttpConnection} caches the context's {@code ServletChannel}), rewrites the rules
 * file if one is given (a live reload: the limit changes each cycle) and reads every {@code dev.limiter} MBean's
 * attributes. At the end it collects garbage until every loader is gone or a minute
 * ({@code -Dredeploy.patience=SECONDS}) has passed, and prints
 * {@code CYCLES <n> LOADERS LEFT <k> METASPACE <after first cycle> <at the end> KiB}. With
 * {@code -Dredeploy.dump=PATH} it then writes a heap dump for a leak to be read; {@code -Dredeploy.leak=true} keeps
 * every loader on purpose: the harness's own proof that it sees a leak.
 */
public final class RedeployCycles {

    /** One container: deploys the application at {@code /app}, undeploys it. */
    public interface Container {
        /** Deploys the application and returns its class loader. */
        ClassLoader deploy() throws Exception;

        void undeploy() throws Exception;

        int port();
    }

    private static final String RULES = """
            version: 1
            rules:
              - id: items
                match: { http: { path: /api/items/** } }
                key: ip
                limit: %d
                window: 1h
              - id: api-method
                match: { method: { class: dev.limiter.it.app.ApiServlet, method: doGet } }
                limit: 100000
                window: 1h
            """;

    /** With {@code -Dredeploy.leak=true}: what a leak looks like, each undeployed loader kept on purpose. */
    private static final List<ClassLoader> LEAKED = new ArrayList<>();

    private RedeployCycles() {
    }

    /** Runs {@code cycles} cycles in {@code container}; {@code rules}: the agent's rules file, or null. */
    public static void run(Container container, int cycles, Path rules) throws Exception {
        List<WeakReference<ClassLoader>> loaders = new ArrayList<>();
        long metaspaceAfterFirst = 0;
        for (int cycle = 0; cycle < cycles; cycle++) {
            ClassLoader loader = container.deploy();
            loaders.add(new WeakReference<>(loader));
            if (Boolean.getBoolean("redeploy.leak")) {
                LEAKED.add(loader);
            }
            loader = null;
            int rejections = 0;
            for (int i = 0; i < 20 && rejections == 0; i++) {
                if (status(container.port(), "/app/api/items/" + cycle) == 429) {
                    rejections++;
                }
            }
            if (rules != null) {
                // written beside and moved over the file: the agent's watcher never reads a half-written file
                Path next = rules.resolveSibling(rules.getFileName() + ".next");
                Files.writeString(next, String.format(RULES, 3 + cycle % 2));
                Files.move(next, rules, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            readMBeans();
            System.out.println("CYCLE " + cycle + " REJECTED " + rejections);
            container.undeploy();
            if (cycle == 0) {
                collect();
                metaspaceAfterFirst = metaspaceKiB();
            }
        }
        int left = loaders.size();
        long deadline = System.nanoTime() + Long.getLong("redeploy.patience", 60) * 1_000_000_000L;
        while (left > 0 && System.nanoTime() < deadline) {
            collect();
            left = 0;
            for (WeakReference<ClassLoader> loader : loaders) {
                if (loader.get() != null) {
                    left++;
                }
            }
        }
        System.out.println("CYCLES " + cycles + " LOADERS LEFT " + left + " METASPACE " + metaspaceAfterFirst + " "
                + metaspaceKiB() + " KiB");
        String dump = System.getProperty("redeploy.dump");
        if (left > 0 && dump != null) {
            ManagementFactory.newPlatformMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                    "com.sun.management:type=HotSpotDiagnostic", com.sun.management.HotSpotDiagnosticMXBean.class)
                    .dumpHeap(dump, true);
        }
        System.out.flush();
    }

    /** The status code of a GET of {@code path}, sent with {@code Connection: close} on a connection of its own. */
    private static int status(int port, String path) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            // HTTP/1.1 429 Too Many Requests
            return Integer.parseInt(response.substring(9, 12));
        }
    }

    /** Reads every attribute of every limiter MBean, as a monitoring tool would. */
    private static void readMBeans() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(new ObjectName("dev.limiter:*"), null);
        for (ObjectName name : names) {
            for (var attribute : server.getMBeanInfo(name).getAttributes()) {
                try {
                    server.getAttribute(name, attribute.getName());
                } catch (Exception unreadable) {
                    // an attribute that fails to read is not what this harness looks at
                }
            }
        }
    }

    private static void collect() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
    }

    private static long metaspaceKiB() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                return pool.getUsage().getUsed() / 1024;
            }
        }
        return -1;
    }
}
