package dev.limiter.agent.servlet.shape;

/** Stands for the servlet API's {@code AsyncListener} (the agent implements it with a proxy). */
public interface AsyncListener {
}
