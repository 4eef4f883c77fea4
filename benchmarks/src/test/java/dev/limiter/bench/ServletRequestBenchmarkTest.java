package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The servlet benchmark measures what its configuration names: each request goes through the installed limiter
 * (counted by the matching rule exactly once per operation, or by no rule), and the rate-limit headers appear
 * on the Tomcat response only where the configuration asks for them.
 */
class ServletRequestBenchmarkTest {

    @ParameterizedTest
    @CsvSource({
        "no-delegate,   -1, false, false",
        "no-rules,      -1, false, false",
        "no-match,       0, false, false",
        "headers-none,   4, false, false",
        "headers-draft,  4, true,  false",
        "headers-both,   4, true,  true",
    })
    void eachOperationIsOneRequestThroughTheConfiguredLimiter(String config, long admitted, boolean draft,
            boolean legacy) throws Exception {
        for (String paths : new String[] {"chars", "strings"}) {
            ServletRequestBenchmark benchmark = new ServletRequestBenchmark();
            benchmark.config = config;
            benchmark.paths = paths;
            measure(benchmark, admitted, draft, legacy);
        }
    }

    private static void measure(ServletRequestBenchmark benchmark, long admitted, boolean draft, boolean legacy)
            throws Exception {
        benchmark.setUp();
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(benchmark.admitOne()).isFalse();
            }
            // setUp admitted one request already
            assertThat(benchmark.admitted()).isEqualTo(admitted);
            assertThat(benchmark.responseHeader("RateLimit") != null).isEqualTo(draft);
            assertThat(benchmark.responseHeader("X-RateLimit-Remaining") != null).isEqualTo(legacy);
            if (draft) {
                assertThat(benchmark.responseHeader("RateLimit")).startsWith("\"items\";r=99999999");
            }
        } finally {
            benchmark.tearDown();
        }
    }
}
