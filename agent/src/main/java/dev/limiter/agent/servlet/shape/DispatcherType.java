package dev.limiter.agent.servlet.shape;

/** The servlet API's dispatcher types, as far as the agent reads them. */
public enum DispatcherType {
    REQUEST, FORWARD, INCLUDE, ASYNC, ERROR
}
