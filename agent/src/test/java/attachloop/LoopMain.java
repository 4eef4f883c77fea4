package attachloop;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A program without the agent whose threads call {@link Work#call} in a tight loop (half of them virtual threads on
 * Java 21+), for an attach while they run. It prints {@code LOOPING} once every thread is calling; the line
 * {@code GO} on its standard input (sent when the attach has returned: the rules are in force) marks the calls
 * made from then on; the line {@code STOP} ends the loops, and it prints what its callers saw and what the
 * limiter's MBeans say: {@code RESULT admittedAfter=.. rejectedAfter=.. thrown=.. allowed=.. rejected=..} and
 * {@code REWEAVE state=<Reweaving> last=<LastReweave>}.
 *
 * <p>The rejection is recognised by name: this program does not see the limiter's API, which the agent puts on the
 * bootstrap class path only when it is attached.
 */
public final class LoopMain {

    private static final String REJECTION = "dev.limiter.api.RateLimitExceededException";

    private static volatile boolean go;
    private static volatile boolean stop;
    private static final LongAdder ADMITTED_AFTER = new LongAdder();
    private static final LongAdder REJECTED_AFTER = new LongAdder();
    private static final LongAdder THROWN = new LongAdder();
    private static final LongAdder STARTED = new LongAdder();

    private LoopMain() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        List<Thread> loops = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            loops.add(start(i % 2 == 1 && Runtime.version().feature() >= 21, LoopMain::loop));
        }
        while (STARTED.sum() < threads) {
            Thread.onSpinWait();
        }
        System.out.println("LOOPING");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("GO")) {
                go = true;
                System.out.println("GOING");
            } else if (line.equals("STOP")) {
                break;
            }
        }
        stop = true;
        for (Thread loop : loops) {
            loop.join();
        }
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName rule = new ObjectName("dev.limiter:type=Rule,name=work");
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        long deadline = System.nanoTime() + 30_000_000_000L; // the MBeans come limiter.jmx.delay after the start
        while (!(server.isRegistered(rule) && server.isRegistered(limiter)) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.out.println("RESULT admittedAfter=" + ADMITTED_AFTER.sum() + " rejectedAfter=" + REJECTED_AFTER.sum()
                + " thrown=" + THROWN.sum() + " allowed=" + server.getAttribute(rule, "Allowed")
                + " rejected=" + server.getAttribute(rule, "Rejected"));
        System.out.println("REWEAVE state=" + server.getAttribute(limiter, "Reweaving")
                + " last=" + server.getAttribute(limiter, "LastReweave"));
    }

    private static void loop() {
        STARTED.increment();
        int sink = 0;
        while (!stop) {
            boolean after = go;
            try {
                sink = Work.call(sink);
                if (after) {
                    ADMITTED_AFTER.increment();
                }
            } catch (RuntimeException e) {
                if (!e.getClass().getName().equals(REJECTION)) {
                    throw e;
                }
                THROWN.increment();
                if (after) {
                    REJECTED_AFTER.increment();
                }
            }
        }
        if (sink == 42) {
            System.out.print("");
        }
    }

    /** A platform thread, or a virtual one (Java 21+, through reflection: this class is compiled for 17). */
    private static Thread start(boolean virtual, Runnable body) throws ReflectiveOperationException {
        if (!virtual) {
            Thread thread = new Thread(body);
            thread.start();
            return thread;
        }
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
                .invoke(builder, body);
    }
}
