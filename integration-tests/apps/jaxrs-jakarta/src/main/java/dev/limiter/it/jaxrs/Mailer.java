package dev.limiter.it.jaxrs;

import dev.limiter.it.support.Gate;

/**
 * A plain class with nothing to do with HTTP, the kind of outgoing call {@code method:} rules protect. The
 * limiter gets in only by weaving these methods: a rejection is an exception thrown out of them.
 */
public class Mailer {

    public String send(String to) {
        return "sent to " + to;
    }

    /** Limited by a rule with {@code throw: MailQuotaException}. */
    public String sendUrgent(String to) {
        return "sent urgently to " + to;
    }

    /**
     * Waits at the gate named {@code gate} (none if empty) so a test can hold calls in flight, then fails if
     * asked: a {@code concurrency} rule must give the permit back either way.
     */
    public void sendSlow(String gate, boolean fail) {
        if (!gate.isEmpty() && !Gate.named(gate).pass(60_000)) {
            throw new IllegalStateException("gate " + gate + " stayed shut");
        }
        if (fail) {
            throw new IllegalStateException("mail server down");
        }
    }
}
