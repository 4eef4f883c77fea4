package dev.limiter.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.compile.TestRules;
import dev.limiter.rules.key.ClientIpResolver;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The request-path methods allocate nothing: measured with the JVM's per-thread allocation counter over many
 * calls (a tolerance far below one object per call absorbs counter noise, not a per-call allocation).
 */
class RequestPathAllocationTest {

    private static final int CALLS = 20_000;

    @Test
    void matchingAndClientIpResolutionDoNotAllocate() {
        RuleSet rules = TestRules.parse("version: 1\nclient-ip:\n  trusted-proxies: [10.0.0.0/8, 'fd00::/8']\n"
                + "rules:\n"
                + "  - id: a\n    match: { http: { path: '/api/{id}/**', methods: [GET] } }\n    limit: 1\n    window: 1s\n"
                + "  - id: b\n    match: { http: { paths: [/static/*.js, '/**/admin/**'] } }\n    limit: 1\n    window: 1s\n"
                + "  - id: c\n    match: { method: { class: 'com.acme.*Mailer', method: 'send*' } }\n    limit: 1\n"
                + "    window: 1s\n");
        Rule[] out = new Rule[4];
        String[] paths = {"/api/42/orders", "/static/app.js", "/x/admin/y", "/nothing/here", "/api;j=1//42"};
        ClientIpResolver ip = rules.clientIp();
        long sink = 0;
        for (int i = 0; i < CALLS; i++) { // warm up
            sink += rules.matchHttp("GET", paths[i % paths.length], out);
            sink += rules.matchMethod("com.acme.SmtpMailer", "sendAll", out);
            sink += ip.resolve("203.0.113.9", "1.2.3.4", null).length();
            sink += ip.isTrusted("fd00::1") ? 1 : 0;
            sink += ip.key("203.0.113.9").length();
            sink += ip.key("2001:db8:1:2::7").length(); // the same IPv6 client again: its key is cached
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            sink += rules.matchHttp("GET", paths[i % paths.length], out);
            sink += rules.matchMethod("com.acme.SmtpMailer", "sendAll", out);
            sink += ip.resolve("203.0.113.9", "1.2.3.4", null).length();
            sink += ip.isTrusted("fd00::1") ? 1 : 0;
            sink += ip.key("203.0.113.9").length();
            sink += ip.key("2001:db8:1:2::7").length(); // the same IPv6 client again: its key is cached
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(sink).isPositive();
        assertThat(allocated).as("bytes allocated by %d calls", CALLS).isLessThan(CALLS / 4);
    }
}
