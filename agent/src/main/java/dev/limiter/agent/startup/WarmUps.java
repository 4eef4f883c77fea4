package dev.limiter.agent.startup;

import dev.limiter.agent.servlet.ServletWarmUp;
import dev.limiter.agent.weave.LimiterTransformer;
import dev.limiter.agent.weave.WeaverWarmUp;
import dev.limiter.rules.reload.RuleSetHolder;
import java.util.concurrent.CountDownLatch;

/**
 * The start-up's two warm-ups, on the {@code limiter-warm-up} daemon thread, each only once the work it prepares
 * is coming, so a JVM that weaves nothing never spends their CPU:
 * <ol>
 *   <li>the weaver's ({@link WeaverWarmUp}: ASM's reader and writer), once the transformer sees that weaving is
 *       coming ({@link LimiterTransformer#weaving}), or at once if the file may have {@code method:} rules (they may
 *       name any class). It runs beside the parse, so a class woven while the rules load (gRPC's call handlers)
 *       does not load ASM on the application's thread;</li>
 *   <li>the first servlet request's ({@link ServletWarmUp}), once a servlet or filter class is woven and the
 *       rules are in: only a servlet container, still starting, pays for it.</li>
 * </ol>
 * The thread parks until then, for ever on a stack that never gets there.
 */
final class WarmUps implements Runnable {

    private final LimiterTransformer transformer;
    private final boolean weaveNow;
    private final CountDownLatch settled = new CountDownLatch(1);
    private volatile RuleSetHolder rules;

    /** {@code weaveNow}: the rules may name any class ({@code method:}), so weaving may come without a sign. */
    WarmUps(LimiterTransformer transformer, boolean weaveNow) {
        this.transformer = transformer;
        this.weaveNow = weaveNow;
    }

    /** The rules are in: the request warm-up may run once a servlet is woven. */
    void rulesLoaded(RuleSetHolder holder) {
        rules = holder;
        settled.countDown();
    }

    /** The rules will not come: no request warm-up. */
    void rulesFailed() {
        settled.countDown();
    }

    @Override
    public void run() {
        try {
            if (!weaveNow) {
                transformer.weaving().await();
            }
            WeaverWarmUp.run();
            transformer.servlets().await();
            settled.await();
        } catch (InterruptedException e) {
            return; // the JVM is stopping: no request will come
        }
        RuleSetHolder holder = rules;
        if (holder != null) {
            ServletWarmUp.run(holder.current());
        }
    }
}
