package dev.limiter.it.grpc;

/**
 * The rules file one gRPC server JVM serves all scenarios of {@link GrpcLimiterTest} with: every scenario owns a
 * rule id and a service ({@code it.<Scenario>}, served by the test app's fallback registry), so no rule counts
 * another scenario's calls; each rendered version carries a marker rule ({@code it.RulesV<N>/Create}, limit 1):
 * its second call is rejected exactly when version N is live.
 */
record GrpcScenarioRules(int reloadLimit, String dryMode) {

    static final int RULE_COUNT = 10;

    static GrpcScenarioRules initial() {
        return new GrpcScenarioRules(2, "dry-run");
    }

    static String markerService(int version) {
        return "it.RulesV" + version;
    }

    GrpcScenarioRules withReloadLimit(int limit) {
        return new GrpcScenarioRules(limit, dryMode);
    }

    GrpcScenarioRules withDryMode(String mode) {
        return new GrpcScenarioRules(reloadLimit, mode);
    }

    String render(int version) {
        return """
                version: 1
                response:
                  headers: both
                client-ip:
                  trusted-proxies: [10.0.0.0/8]
                rules:
                  - id: rules-v%d
                    match: { grpc: { service: %s, method: Create } }
                    limit: 1
                    window: 1h
                  - id: exact
                    match: { grpc: { service: it.Exact, method: 'Cre*' } }
                    limit: 3
                    window: 1h
                  - id: stream
                    match: { grpc: { service: it.Stream, method: Watch } }
                    limit: 2
                    window: 1h
                  - id: by-ip
                    match: { grpc: { service: it.ByIp } }
                    key: ip
                    limit: 2
                    window: 1h
                  - id: by-tenant
                    match: { grpc: { service: it.ByTenant, method: Create } }
                    key: metadata:X-Tenant
                    limit: 1
                    window: 1h
                  - id: dry
                    match: { grpc: { service: it.Dry, method: Create } }
                    limit: 2
                    window: 1h
                    mode: %s
                  - id: reload
                    match: { grpc: { service: it.Reload, method: Create } }
                    limit: %d
                    window: 1h
                  - id: held
                    match: { grpc: { service: it.Held, method: Hold } }
                    strategy: concurrency
                    limit: 2
                  - id: held-done
                    match: { grpc: { service: it.HeldDone, method: Watch } }
                    strategy: concurrency
                    limit: 1
                  - id: other-services
                    match: { grpc: { service: 'other.**' } }
                    limit: 1
                    window: 1h
                """.formatted(version, markerService(version), dryMode, reloadLimit);
    }
}
