package dev.limiter.agent.cli;

/**
 * One of a rule's most rejected keys, as the rule MBean's {@code TopRejectedKeys} reports it. The key is client
 * text (an address, a header's value): renderers escape it.
 *
 * @param count rejections counted for the key; may overestimate by at most {@code error}
 */
record TopKey(String key, long count, long error) {
}
