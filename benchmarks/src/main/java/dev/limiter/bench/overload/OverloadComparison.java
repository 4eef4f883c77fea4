package dev.limiter.bench.overload;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Each contender against the same open-loop load on the same pooled endpoint, one forked server after the
 * other: a warm-up at half capacity, then 0.1x (unloaded), 0.5x, 1x, 2x and 4x the pool's capacity, then 1x
 * again to see how fast it recovers. {@code main([contender names...])} prints the markdown report (all
 * contenders when none are named); {@link OverloadSettings} says what the system properties set.
 */
public final class OverloadComparison {

    static final double[] LOADS = {0.5, 1, 2, 4};
    static final double GENERATOR_WARM_UP_SECONDS = 4;

    private OverloadComparison() {
    }

    public static void main(String[] args) throws Exception {
        OverloadSettings settings = OverloadSettings.fromSystemProperties();
        List<Contender> contenders = new ArrayList<>();
        for (String name : args) {
            contenders.add(Contender.byName(name));
        }
        System.out.print(OverloadReport.markdown(settings, run(settings, contenders.isEmpty() ? Contender.all()
                : contenders)));
    }

    static List<ContenderRun> run(OverloadSettings settings, List<Contender> contenders) throws Exception {
        warmUpTheGenerator(settings);
        List<ContenderRun> runs = new ArrayList<>();
        for (Contender contender : contenders) {
            System.err.println("overload: " + contender.name());
            runs.add(run(settings, contender));
        }
        return runs;
    }

    static ContenderRun run(OverloadSettings settings, Contender contender) throws Exception {
        Path dir = Files.createTempDirectory("limiter-overload");
        int metricsPort = freePort();
        double capacity = settings.capacity();
        List<OpenLoopPhase.Segment> segments = new ArrayList<>();
        segments.add(new OpenLoopPhase.Segment("warm-up", capacity / 2, settings.warmupSeconds()));
        segments.add(new OpenLoopPhase.Segment(ContenderRun.UNLOADED, capacity / 10,
                Math.max(settings.phaseSeconds(), 20 / (capacity / 10))));
        for (double load : LOADS) {
            segments.add(new OpenLoopPhase.Segment(label(load), capacity * load, settings.phaseSeconds()));
        }
        segments.add(new OpenLoopPhase.Segment(ContenderRun.RECOVERY, capacity, settings.recoverySeconds()));
        try (ForkedServer server = ForkedServer.start(settings, contender, dir, metricsPort);
                AdaptiveLimitSampler sampler = AdaptiveLimitSampler.ENABLED && contender.rules() != null
                        && contender.rules().contains("adaptive") ? new AdaptiveLimitSampler(metricsPort) : null) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(settings.timeout()).build();
            long loadStart = sampler == null ? 0 : sampler.elapsedNanos();
            List<PhaseResult> all = OpenLoopPhase.run(client,
                    URI.create("http://127.0.0.1:" + server.port + "/work"), segments, settings.timeout());
            List<PhaseResult> measured = all.subList(1, all.size());
            long[] starts = new long[measured.size()];
            long at = loadStart + (long) (segments.get(0).seconds() * 1e9);
            for (int i = 0; i < measured.size(); i++) {
                starts[i] = at;
                at += (long) (measured.get(i).seconds() * 1e9);
            }
            return new ContenderRun(contender, List.copyOf(measured), starts,
                    sampler == null ? List.of() : sampler.samples());
        }
    }

    /**
     * The load generator's own warm-up, thrown away: its client code runs interpreted at first, and the first
     * contender measured at 4x would carry the generator's lag, not the server's. Every load once, for the
     * {@link #GENERATOR_WARM_UP_SECONDS} each, against a server that refuses cheaply (Netflix's filter: no agent
     * to start).
     */
    private static void warmUpTheGenerator(OverloadSettings settings) throws Exception {
        Path dir = Files.createTempDirectory("limiter-overload");
        List<OpenLoopPhase.Segment> segments = new ArrayList<>();
        for (double load : LOADS) {
            segments.add(new OpenLoopPhase.Segment(label(load), settings.capacity() * load,
                    GENERATOR_WARM_UP_SECONDS));
        }
        System.err.println("overload: the load generator's warm-up");
        try (ForkedServer server = ForkedServer.start(settings, new Contender("warm-up", null, true), dir, 0)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(settings.timeout()).build();
            OpenLoopPhase.run(client, URI.create("http://127.0.0.1:" + server.port + "/work"), segments,
                    settings.timeout());
        }
    }

    static String label(double load) {
        return (load == Math.rint(load) ? Integer.toString((int) load) : Double.toString(load)) + "x";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
