package methodtest;

import java.util.concurrent.atomic.AtomicInteger;

/** Plain methods named by {@code method:} rules in the weaving tests: several return types and keys. */
public class Mailer {

    public final AtomicInteger sent = new AtomicInteger();

    public void send(String to) {
        sent.incrementAndGet();
    }

    public void notify(String to) {
        sent.incrementAndGet();
    }

    public int sendTo(int account) {
        sent.incrementAndGet();
        return 42;
    }

    public long sendCount(long batch) {
        sent.incrementAndGet();
        return 7L;
    }

    public String describe(String subject) {
        sent.incrementAndGet();
        return "mail " + subject;
    }

    public static String template(String name) {
        return "template " + name;
    }

    /** Not named by any rule: must never be limited. */
    public int untouched() {
        sent.incrementAndGet();
        return 1;
    }
}
