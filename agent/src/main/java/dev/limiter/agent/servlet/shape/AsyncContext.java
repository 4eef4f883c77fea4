package dev.limiter.agent.servlet.shape;

/** The {@code AsyncContext} method the agent calls. */
public interface AsyncContext {

    void addListener(AsyncListener listener);
}
