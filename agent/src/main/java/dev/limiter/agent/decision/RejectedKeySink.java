package dev.limiter.agent.decision;

/** Takes the rejected keys of one rule (the JMX top-keys summary). Called on the reject path: must not block. */
public interface RejectedKeySink {

    void offer(String key);
}
