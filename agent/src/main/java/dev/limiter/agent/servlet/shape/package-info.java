/**
 * A miniature of the servlet API's shape, never an API anyone implements: the request and response methods
 * {@code ServletApi} binds, with the same signatures, plus the {@code DispatcherType}, {@code AsyncContext} and
 * {@code AsyncListener} it looks up next to them. {@code ServletWarmUp} binds these on the agent's rules thread,
 * so the method-handle shapes a real request class needs are spun before the application's first request.
 */
package dev.limiter.agent.servlet.shape;
