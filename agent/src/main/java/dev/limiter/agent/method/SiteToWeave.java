package dev.limiter.agent.method;

/**
 * What the woven code of one method carries, decided when its class is woven: which method, its site id, and
 * which arguments it passes as the key and the cost.
 *
 * @param name       the method's name
 * @param descriptor the method's descriptor
 * @param siteId     the {@link WovenSite} id the code passes to the bridge
 * @param keyIndex   parameter index of the key argument (boxed if primitive), or -1 to pass null
 * @param costIndex  parameter index of the cost argument ({@code cost: arg:N}), or -1 for a cost of 1
 */
public record SiteToWeave(String name, String descriptor, int siteId, int keyIndex, int costIndex) {
}
