package dev.limiter.it.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.AbstractRuleAllocationTest;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.TestApp;
import io.grpc.Status;
import java.util.function.Predicate;

/**
 * {@link AbstractRuleAllocationTest} on grpc-java (Netty): unary calls from a real client; the server's
 * {@code grpc-*} threads (Netty's event loops and the call executor).
 */
class GrpcAllocationTest extends AbstractRuleAllocationTest {

    private GrpcClient client;

    @Override
    protected TestApp app() {
        return TestApp.GRPC_NETTY;
    }

    @Override
    protected Predicate<String> requestThreads() {
        return name -> name.startsWith("grpc-");
    }

    @Override
    protected String rule(String key) {
        return """
                  - id: alloc
                    match: { grpc: { service: it.Alloc, method: '*' } }
                    key: %s
                    limit: 1000000000
                    window: 1h
                """.formatted(key);
    }

    @Override
    protected void call(String key) {
        assertThat(client.create("it.Alloc", "x").code()).isEqualTo(Status.Code.OK);
    }

    /**
     * grpc-java's own allocation per call (buffers, headers, the call's objects) varies by up to ~35 bytes per call
     * between rounds of 2 000 calls, more than on the HTTP servers: a per-call allocation by the agent shows above
     * this bound only from ~64 bytes (a key string and its bytes, say).
     */
    @Override
    protected double maxAddedBytes() {
        return 64;
    }

    @Override
    protected void started(ForkedServer server) {
        client = new GrpcClient(server.port());
    }

    @Override
    protected void stopping() throws Exception {
        if (client != null) {
            client.close();
        }
    }
}
