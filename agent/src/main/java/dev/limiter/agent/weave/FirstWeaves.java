package dev.limiter.agent.weave;

import dev.limiter.agent.entry.EntryTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * Work that waits until the transformer first weaves a class of some targets woven by name (WebFlux's handler
 * adapter, gRPC's call handlers...): an entry point's delegate is built then, so a JVM without that stack never
 * loads its limiter. The work runs on the thread that weaves, before the woven class is defined, so none of its
 * calls can come before it; or at once, on the caller's thread, if such a class was woven already.
 */
public final class FirstWeaves {

    /** Bits of the targets woven so far. */
    private int woven;
    private final List<Waiting> waiting = new ArrayList<>();

    /** Runs {@code work} once a class of one of {@code targets} is woven, or now if one was. */
    public void whenWoven(EntryTarget[] targets, Runnable work) {
        int bits = WeaveTarget.bitsOf(targets);
        synchronized (this) {
            if ((woven & bits) == 0) {
                waiting.add(new Waiting(bits, work));
                return;
            }
        }
        work.run();
    }

    /** The transformer wove a class for the targets {@code bits}: runs the work that waited for them. */
    void woven(int bits) {
        List<Runnable> due = null;
        synchronized (this) {
            if ((woven & bits) == bits) {
                return;
            }
            woven |= bits;
            for (int i = waiting.size() - 1; i >= 0; i--) {
                if ((waiting.get(i).bits & bits) != 0) {
                    if (due == null) {
                        due = new ArrayList<>(1);
                    }
                    due.add(waiting.remove(i).work);
                }
            }
        }
        if (due != null) {
            for (Runnable work : due) {
                work.run();
            }
        }
    }

    private static final class Waiting {
        final int bits;
        final Runnable work;

        Waiting(int bits, Runnable work) {
            this.bits = bits;
            this.work = work;
        }
    }
}
