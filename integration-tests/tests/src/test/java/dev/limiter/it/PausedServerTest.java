package dev.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.harness.WindowGuard;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The service frozen for 2 s mid-traffic, as a long stop-the-world GC pause or a descheduled VM would freeze it:
 * {@code kill -STOP}, 2 s, {@code kill -CONT} of a Jetty 12 server with the agent. SIGSTOP is the honest pause:
 * every thread stops, the kernel keeps accepting connections, and what clients sent meanwhile arrives at once
 * when the JVM resumes. After the pause the limits are exact: the requests queued during the pause get only
 * what was left of the window, a token bucket gives at most one full bucket plus its refill over the elapsed
 * time (the pause counts as time that passed, never twice), a bulkhead's permits held through the pause all
 * come back, no key stays throttled, and no request errs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PausedServerTest {

    private static final Duration PAUSE = Duration.ofSeconds(2);
    private static final int QUOTA = 10;
    private static final int RATE = 5; // per second, capacity 5

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private long pid;

    @BeforeAll
    void startServer() {
        rules = RulesFile.create("rules.yml");
        rules.write("""
                version: 1
                reload: { watch: false }
                rules:
                  - id: quota
                    match: { http: { path: /api/items/quota } }
                    strategy: fixed-window
                    limit: %d
                    window: 1h
                  - id: rate
                    match: { http: { path: /api/items/rate } }
                    strategy: token-bucket
                    limit: %d
                    window: 1s
                  - id: bulkhead
                    match: { http: { path: /slow } }
                    strategy: concurrency
                    limit: 2
                    window: 1s
                """.formatted(QUOTA, RATE));
        server = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA, "PausedServerTest-server",
                List.of(Agent.option(rules.path()))));
        http = server.http();
        pid = serverPid(rules.path().toString());
    }

    @AfterAll
    void stopServer() throws IOException, InterruptedException {
        if (server != null) {
            signal("CONT"); // never leave a stopped JVM behind a failed assertion
            server.close();
        }
        rules.delete();
    }

    @Test
    void limitsAreExactAcrossATwoSecondPause() throws Exception {
        WindowGuard.awaitRoomInWindow(Duration.ofHours(1), Duration.ofMinutes(1)); // no quota reset mid-test
        for (int i = 0; i < 4; i++) {
            assertThat(http.status("/api/items/quota")).isEqualTo(200);
        }
        List<Long> rateSentNanos = new CopyOnWriteArrayList<>();
        List<Integer> rateStatuses = new CopyOnWriteArrayList<>();
        List<Long> rateAnsweredNanos = new CopyOnWriteArrayList<>();
        AtomicBoolean sending = new AtomicBoolean(true);
        Thread rateClient = new Thread(() -> { // one client, back to back, through the pause
            while (sending.get()) {
                long sent = System.nanoTime();
                int status = http.status("/api/items/rate");
                rateSentNanos.add(sent);
                rateStatuses.add(status);
                rateAnsweredNanos.add(System.nanoTime());
            }
        }, "rate-client");
        rateClient.start();
        Thread.sleep(1000); // traffic before the pause: the bucket is drained to its refill rate

        signal("STOP");
        long stoppedAt = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> queued = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            queued.add(http.getAsync("/api/items/quota")); // accepted by the kernel, answered after the pause
        }
        Thread.sleep(PAUSE.toMillis()); // the pause itself: nothing to wait for, time has to pass
        signal("CONT");
        long resumedAt = System.nanoTime();

        int queuedAllowed = 0;
        for (CompletableFuture<HttpResponse<String>> each : queued) {
            int status = each.get(60, TimeUnit.SECONDS).statusCode();
            assertThat(status).as("a queued request is answered 200 or 429, never an error").isIn(200, 429);
            queuedAllowed += status == 200 ? 1 : 0;
        }
        assertThat(queuedAllowed).as("the queued burst gets only what was left of the window").isEqualTo(QUOTA - 4);
        assertThat(http.status("/api/items/quota")).isEqualTo(429);

        Thread.sleep(3000); // traffic after the pause
        sending.set(false);
        rateClient.join();

        assertThat(rateStatuses).as("rate-limited requests are 200 or 429, never an error").allMatch(
                s -> s == 200 || s == 429);
        long firstSent = rateSentNanos.get(0);
        long lastAnswered = rateAnsweredNanos.get(rateAnsweredNanos.size() - 1);
        double elapsedSeconds = (lastAnswered - firstSent) / 1e9;
        long admitted = rateStatuses.stream().filter(s -> s == 200).count();
        int afterResume = 0;
        int admittedAfterResume = 0;
        for (int i = 0; i < rateStatuses.size(); i++) {
            if (rateSentNanos.get(i) > resumedAt) {
                afterResume++;
                admittedAfterResume += rateStatuses.get(i) == 200 ? 1 : 0;
            }
        }
        String what = admitted + " of " + rateStatuses.size() + " admitted over " + elapsedSeconds + " s, "
                + admittedAfterResume + " of " + afterResume + " after the resume; paused "
                + (resumedAt - stoppedAt) / 1_000_000 + " ms";
        System.out.println("PausedServerTest: rate: " + what);
        // one full bucket plus the refill of the server's elapsed time, which cannot exceed the client's
        assertThat(admitted).as(what).isLessThanOrEqualTo(RATE + (long) Math.ceil(RATE * elapsedSeconds));
        // not stuck: the 3 s after the resume refill 15 permits; even a slow machine's client gets some
        assertThat(admittedAfterResume).as(what).isGreaterThanOrEqualTo(RATE);
        assertThat(server.isAlive()).isTrue();
        assertThat(server.output()).as("nothing thrown in the server").doesNotContain("Exception", "SEVERE");
    }

    /**
     * Calls in flight through the pause keep their permits, the calls queued meanwhile are refused against them,
     * and every permit comes back when the held calls end: a paused JVM neither leaks nor doubles a bulkhead.
     */
    @Test
    void bulkheadPermitsHeldThroughAPauseComeBackExactly() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> held = List.of(http.getAsync("/slow?gate=held"),
                http.getAsync("/slow?gate=held"));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> http.number("/app/gate?name=held") == 2);

        signal("STOP");
        List<CompletableFuture<HttpResponse<String>>> queued = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            queued.add(http.getAsync("/slow?gate=queued"));
        }
        Thread.sleep(PAUSE.toMillis()); // the pause itself
        signal("CONT");

        for (CompletableFuture<HttpResponse<String>> each : queued) {
            assertThat(each.get(60, TimeUnit.SECONDS).statusCode()).as("both permits are still held").isEqualTo(429);
        }
        assertThat(http.get("/app/release?name=held").statusCode()).isEqualTo(200);
        for (CompletableFuture<HttpResponse<String>> each : held) {
            assertThat(each.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        // both permits back: two new calls are admitted together, a third is not
        List<CompletableFuture<HttpResponse<String>>> after = List.of(http.getAsync("/slow?gate=after"),
                http.getAsync("/slow?gate=after"));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> http.number("/app/gate?name=after") == 2);
        assertThat(http.status("/slow?gate=after")).isEqualTo(429);
        assertThat(http.get("/app/release?name=after").statusCode()).isEqualTo(200);
        for (CompletableFuture<HttpResponse<String>> each : after) {
            assertThat(each.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
    }

    /** The forked server's pid: the child JVM whose command line names this test's rules file. */
    private static long serverPid(String rulesPath) {
        List<ProcessHandle> matches = ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().map(c -> c.contains(rulesPath)).orElse(false))
                .toList();
        assertThat(matches).as("one child JVM runs with " + rulesPath).hasSize(1);
        return matches.get(0).pid();
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -" + name + " " + pid).isZero();
    }
}
