package dev.limiter.rules.condition;

import dev.limiter.rules.key.IpRanges;
import java.util.ArrayList;
import java.util.List;

/**
 * One compiled set of request conditions ({@code ips}, {@code headers}, {@code principal-roles}), as a rule's
 * {@code match}, an {@code unless} entry or an override's {@code when} states them: all stated parts must hold;
 * within {@code ips} any range, within {@code principal-roles} any role. Compiled when the rules load (CIDR
 * ranges, value globs), so testing one allocates nothing.
 */
public final class Condition {

    private final IpRanges ips;
    private final String[] headerNames;
    private final ValueGlob[] headerValues;
    private final String[] roles;

    /**
     * @param ips          the client must be in one of these (empty: any client)
     * @param headerNames  headers that must match, with {@code headerValues} at the same index
     * @param headerValues value patterns ({@code ''}: the header must be absent)
     * @param roles        the user must have one of these (empty: no role needed)
     */
    public Condition(IpRanges ips, List<String> headerNames, List<ValueGlob> headerValues, List<String> roles) {
        this.ips = ips;
        this.headerNames = headerNames.toArray(new String[0]);
        this.headerValues = headerValues.toArray(new ValueGlob[0]);
        this.roles = roles.toArray(new String[0]);
    }

    /** True if {@code request} meets every part of this condition. */
    public boolean holds(RequestFacts request) throws Throwable {
        if (!ips.isEmpty() && !ips.contains(request.clientAddress())) {
            return false;
        }
        for (int i = 0; i < headerNames.length; i++) {
            if (!headerValues[i].matches(request.header(headerNames[i]))) {
                return false;
            }
        }
        if (roles.length == 0) {
            return true;
        }
        for (String role : roles) {
            if (request.isUserInRole(role)) {
                return true;
            }
        }
        return false;
    }

    /** True if this condition reads headers or the client address (which a plain method call does not have). */
    public boolean needsRequest() {
        return !ips.isEmpty() || headerNames.length > 0;
    }

    /** How the condition reads in the file, for logs and JMX, e.g. {@code ips [10.0.0.0/8], headers {X-Plan: pro}}. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (!ips.isEmpty()) {
            parts.add("ips [" + ips + "]");
        }
        if (headerNames.length > 0) {
            StringBuilder headers = new StringBuilder("headers {");
            for (int i = 0; i < headerNames.length; i++) {
                headers.append(i == 0 ? "" : ", ").append(headerNames[i]).append(": '").append(headerValues[i])
                        .append('\'');
            }
            parts.add(headers.append('}').toString());
        }
        if (roles.length > 0) {
            parts.add("principal-roles [" + String.join(", ", roles) + "]");
        }
        return String.join(", ", parts);
    }
}
