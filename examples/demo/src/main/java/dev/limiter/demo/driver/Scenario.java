package dev.limiter.demo.driver;

import java.util.function.IntFunction;

/**
 * One kind of simulated client: what it asks for, how fast, and what the rules should do to it.
 *
 * @param label       short name shown in the summary
 * @param expectation what the rules should do with this traffic, in words
 * @param threads     clients of this kind running at once
 * @param perSecond   requests per second per client; 0 means back to back (each waits for its answer)
 * @param requests    the n-th request of a client
 */
record Scenario(String label, String expectation, int threads, int perSecond, IntFunction<DemoRequest> requests) {
}
