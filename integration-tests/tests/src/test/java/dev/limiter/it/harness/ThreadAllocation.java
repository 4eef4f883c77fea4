package dev.limiter.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import javax.management.MBeanServerConnection;

/**
 * Bytes a forked server's request threads allocate, read over JMX from HotSpot's per-thread allocation counters
 * ({@code com.sun.management.ThreadMXBean}), so a test can hold the agent's allowed path to "allocates nothing"
 * on a real server. Only the threads {@code requestThreads} names count: the JMX connection's own threads
 * allocate while the counters are read.
 */
public final class ThreadAllocation {

    private final com.sun.management.ThreadMXBean threads;
    private final Predicate<String> requestThreads;

    public ThreadAllocation(MBeanServerConnection connection, Predicate<String> requestThreads) {
        try {
            this.threads = ManagementFactory.newPlatformMXBeanProxy(connection, ManagementFactory.THREAD_MXBEAN_NAME,
                    com.sun.management.ThreadMXBean.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.requestThreads = requestThreads;
    }

    /**
     * What a rule adds to each call of {@code request} on the request threads: {@code withRule} and
     * {@code withoutRule} switch the server's rules (returning once the new ones are live); the request is warmed
     * up {@code warmUp} times in each state, then measured over {@code calls} calls in each, alternately,
     * {@code rounds} times, and the median difference per call is returned. The same request through the same
     * server code both ways: only the agent's decision differs.
     */
    public double addedByRule(Runnable request, Runnable withRule, Runnable withoutRule, int warmUp, int calls,
            int rounds) {
        withoutRule.run();
        perCall(request, warmUp);
        withRule.run();
        perCall(request, warmUp);
        double[] added = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            // alternate which state goes first, so a drift over time does not favour one
            boolean ruleFirst = round % 2 == 0;
            double first = measuredIn(ruleFirst ? withRule : withoutRule, request, calls);
            double second = measuredIn(ruleFirst ? withoutRule : withRule, request, calls);
            added[round] = ruleFirst ? first - second : second - first;
        }
        Arrays.sort(added);
        return added[rounds / 2];
    }

    private double measuredIn(Runnable state, Runnable request, int calls) {
        state.run();
        return perCall(request, calls);
    }

    /** Mean bytes the request threads allocate per call of {@code request}, over {@code calls} calls. */
    public double perCall(Runnable request, int calls) {
        Map<Long, Long> before = allocated();
        for (int i = 0; i < calls; i++) {
            request.run();
        }
        long total = 0;
        for (Map.Entry<Long, Long> thread : allocated().entrySet()) {
            // a thread started during the calls counts from zero
            total += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
        }
        return (double) total / calls;
    }

    /** Bytes allocated so far by each live request thread, by thread id. */
    private Map<Long, Long> allocated() {
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        Map<Long, Long> byThread = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && bytes[i] >= 0 && requestThreads.test(infos[i].getThreadName())) {
                byThread.put(ids[i], bytes[i]);
            }
        }
        return byThread;
    }
}
