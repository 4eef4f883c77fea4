package dev.limiter.agent.servlet.shape;

/** The {@code AsyncContext} method of {@code ServletMethod}. */
public interface AsyncContext {

    void addListener(AsyncListener listener);
}
