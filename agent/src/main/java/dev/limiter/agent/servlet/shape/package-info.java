/**
 * A miniature of the servlet API's shape, never an API anyone implements: the methods of {@code ServletMethod}'s
 * table, with the same signatures, on the interfaces standing for the types that declare them, plus the
 * {@code DispatcherType} and {@code AsyncListener} looked up next to them. The table names its API types with
 * these. {@code ServletWarmUp} binds them on the agent's rules thread, so the method-handle shapes a real request
 * class needs are spun before the application's first request; {@code ServletMethodTest} fails when they and the
 * table disagree.
 */
package dev.limiter.agent.servlet.shape;
