package dev.limiter.bench;

/**
 * A rules file with many HTTP rules, the shapes a real service has: per-resource prefixes with a captured
 * segment and a {@code **} tail, exact paths and a few method filters, so the matcher's trie has depth and
 * fan-out instead of one long list of literals.
 */
final class RulesYaml {

    private RulesYaml() {
    }

    static String generate(int count) {
        return generate(count, false);
    }

    /**
     * {@code count} rules; with {@code conditions}, each also states a header condition in its match and an
     * exemption by network, as a service with plans and internal callers would, and limits no run can spend.
     */
    static String generate(int count, boolean conditions) {
        StringBuilder yaml = new StringBuilder(count * 160);
        yaml.append("version: 1\n")
                .append("defaults:\n  strategy: fixed-window\n  max-keys: 1000\n")
                .append("rules:\n");
        for (int i = 0; i < count; i++) {
            yaml.append("  - id: api-").append(i).append('\n')
                    .append("    match:\n      http:\n");
            switch (i % 4) {
                case 0 -> yaml.append("        path: /api/v").append(i % 3 + 1).append("/tenants/{tenant}/resource")
                        .append(i).append("/**\n");
                case 1 -> yaml.append("        path: /api/v").append(i % 3 + 1).append("/resource").append(i)
                        .append("/*/details\n").append("        methods: [GET, POST]\n");
                case 2 -> yaml.append("        path: /static/bundle").append(i).append("/index.html\n");
                default -> yaml.append("        path: /internal/jobs/job").append(i).append("/{id}\n")
                        .append("        methods: [POST]\n");
            }
            if (conditions) {
                yaml.append("        headers: { X-Tenant: 'acme-*' }\n")
                        .append("    unless:\n      - ips: [10.0.0.0/8]\n");
            }
            yaml.append("    key: ip\n")
                    .append("    limit: ").append(conditions ? 2_000_000_000L : 100 + i).append('\n')
                    .append(conditions ? "    window: 1h\n" : "    window: 1s\n");
        }
        return yaml.toString();
    }
}
