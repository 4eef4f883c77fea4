package dev.limiter.it.harness;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Owns the servers of one test class: prints their output when a test fails (the agent's log lines are usually
 * the explanation) and kills them after all tests, whether they passed or not. Register it as an instance field
 * ({@code @RegisterExtension}) of a {@code PER_CLASS} test class, or a static field otherwise.
 */
public final class ServerLogs implements TestWatcher, AfterAllCallback {

    private static final int TAIL_LINES = 150;

    private final List<ForkedServer> servers = new CopyOnWriteArrayList<>();

    public ForkedServer track(ForkedServer server) {
        servers.add(server);
        return server;
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        StringBuilder text = new StringBuilder("==== " + context.getDisplayName() + " failed: server output\n");
        for (ForkedServer server : servers) {
            text.append(server.tail(TAIL_LINES)).append('\n');
        }
        System.out.println(text);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        for (ForkedServer server : servers) {
            server.close();
        }
        servers.clear();
    }
}
