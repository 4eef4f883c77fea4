package dev.limiter.it.quarkus;

/**
 * The rules file one Quarkus server JVM serves all scenarios of {@link QuarkusRestLimiterTest} with: a
 * {@code jaxrs:} rule per scenario, each on its own resource method, the servlet matrix's {@code response:} section
 * (so the 429's headers and body can be held to the same contract), and a marker rule {@code rules-v<N>} per
 * rendered version, which the test finds in the limiter MBean's {@code RuleIds} once version N is live.
 */
record QuarkusScenarioRules(String trustedProxies, int reloadLimit, String dryMode) {

    static final String RESPONSE_CONTENT_TYPE = "application/problem+json";
    static final int RULE_COUNT = 12;
    static final String RESOURCE = "dev.limiter.it.app.quarkus.LimitedResource";

    static QuarkusScenarioRules initial() {
        return new QuarkusScenarioRules("10.0.0.0/8", 2, "dry-run");
    }

    QuarkusScenarioRules trusting(String cidr) {
        return new QuarkusScenarioRules(cidr, reloadLimit, dryMode);
    }

    QuarkusScenarioRules withReloadLimit(int limit) {
        return new QuarkusScenarioRules(trustedProxies, limit, dryMode);
    }

    QuarkusScenarioRules withDryMode(String mode) {
        return new QuarkusScenarioRules(trustedProxies, reloadLimit, mode);
    }

    String render(int version) {
        return """
                version: 1
                response:
                  status: 429
                  content-type: %1$s
                  body: '{"type":"rate-limited","rule":"${rule}","retry_after":${retry_after}}'
                  headers: both
                client-ip:
                  trusted-proxies: [%2$s]
                rules:
                  - id: rules-v%3$d
                    match: { jaxrs: { class: %4$s, method: marker } }
                    limit: 1
                    window: 1h
                  - id: exact
                    match: { jaxrs: { class: %4$s, method: exact } }
                    limit: 5
                    window: 1m
                    strategy: fixed-window
                  - id: counted
                    match: { jaxrs: { class: %4$s, method: counted } }
                    limit: 3
                    window: 1h
                  - id: dry
                    match: { jaxrs: { class: %4$s, method: dry } }
                    limit: 2
                    window: 1h
                    mode: %5$s
                  - id: by-ip
                    match: { jaxrs: { class: %4$s, method: byIp } }
                    key: ip
                    limit: 2
                    window: 1h
                  - id: by-header
                    match: { jaxrs: { class: %4$s, method: byHeader } }
                    key: header:X-Api-Key
                    limit: 1
                    window: 1h
                  - id: by-param
                    match: { jaxrs: { class: %4$s, method: byParam } }
                    key: param:user
                    limit: 1
                    window: 1h
                  - id: on-event-loop
                    match: { jaxrs: { class: %4$s, method: fast } }
                    key: header:X-Api-Key
                    limit: 1
                    window: 1h
                  - id: by-principal
                    match: { jaxrs: { class: %4$s, method: principal } }
                    key: principal
                    on-error: reject
                    limit: 100
                    window: 1h
                  - id: by-name
                    match: { jaxrs: { class: %4$s, method: greet } }
                    key: path-param:name
                    limit: 1
                    window: 1h
                  - id: held
                    match: { jaxrs: { class: %4$s, method: hold } }
                    strategy: concurrency
                    limit: 2
                  - id: reload
                    match: { jaxrs: { class: %4$s, method: reload } }
                    limit: %6$d
                    window: 1h
                """.formatted(RESPONSE_CONTENT_TYPE, trustedProxies, version, RESOURCE, dryMode, reloadLimit);
    }
}
