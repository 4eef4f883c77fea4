package dev.limiter.it.redis;

import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One private {@code redis-server} and two Jetty 12 JVMs with the agent sharing it through {@code store: redis}
 * ({@code on-failure: local}, key prefix {@code it:}): what the shared-store tests share. The rules file is the
 * test's rules plus a {@code probe} rule, by which {@link #awaitBothOnRedis()} sees each server's checks arrive
 * in Redis. Start-up is the cost (one Redis, two servers), so a test class shares one.
 */
final class TwoServersOnRedis implements AutoCloseable {

    private static final String PROBE_RULE = """
              - id: probe
                match: { http: { path: "/probe/{item}" } }
                key: path-param:item
                limit: 1000
                window: 1m
            """;

    private final RedisProcess redis;
    private final RulesFile rules;
    private final ForkedServer one;
    private final ForkedServer two;
    private final AtomicInteger probes = new AtomicInteger();

    private TwoServersOnRedis(RedisProcess redis, RulesFile rules, ForkedServer one, ForkedServer two) {
        this.redis = redis;
        this.rules = rules;
        this.one = one;
        this.two = two;
    }

    /**
     * Starts Redis, then both servers ({@code name-one}, {@code name-two}), and waits until both check on Redis.
     *
     * @param rules the test's entries of the {@code rules:} list, indented by two spaces
     */
    static TwoServersOnRedis start(ServerLogs servers, String name, long timeoutMillis, String rules) {
        RedisProcess redis = RedisProcess.start();
        RulesFile file = RulesFile.create("rules.yml");
        file.write("""
                version: 1
                store:
                  type: redis
                  uri: %s
                  timeout: %dms
                  on-failure: local
                  key-prefix: "it:"
                rules:
                """.formatted(redis.uri(), timeoutMillis) + rules + PROBE_RULE);
        List<String> options = List.of(Agent.option(file.path()));
        ForkedServer one = null;
        ForkedServer two = null;
        try {
            one = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA, name + "-one", options));
            two = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA, name + "-two", options));
            TwoServersOnRedis started = new TwoServersOnRedis(redis, file, one, two);
            started.awaitBothOnRedis();
            return started;
        } catch (RuntimeException | Error e) { // the test never sees the fixture: leave nothing running
            new TwoServersOnRedis(redis, file, one, two).close();
            throw e;
        }
    }

    RedisProcess redis() {
        return redis;
    }

    /** Both servers' HTTP clients: server one first. */
    HttpApi[] apis() {
        return new HttpApi[] {one.http(), two.http()};
    }

    /** Until a fresh probe key sent to each server is found in Redis: both stores talk to Redis. */
    void awaitBothOnRedis() {
        for (ForkedServer server : new ForkedServer[] {one, two}) {
            await(server.name() + " checks on Redis").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(300)).ignoreExceptions().until(() -> {
                        String item = "p" + probes.incrementAndGet();
                        server.http().status("/probe/" + item);
                        return ":1".equals(redis.command("EXISTS", "it:{probe:" + item + "}"));
                    });
        }
    }

    @Override
    public void close() {
        for (ForkedServer server : new ForkedServer[] {one, two}) {
            if (server != null) {
                server.close();
            }
        }
        try {
            redis.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        rules.delete();
    }
}
