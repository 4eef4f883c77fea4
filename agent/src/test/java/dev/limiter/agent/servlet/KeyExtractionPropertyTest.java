package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.key.KeyBound;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import weavingtest.FakeHttp;

/**
 * Fuzzing {@code header:} and {@code param:} key extraction through the servlet decision, with fake requests
 * carrying random values: empty, short, up to 2,000 characters, any UTF-16 code unit (control characters, CR, LF,
 * NUL, lone surrogates, what a container makes of bytes that are not UTF-8). Properties, for any value:
 *
 * <ol>
 *   <li>the decision neither throws nor fails the rule: the request is admitted and counted;
 *   <li>the count lands on {@link KeyBound#bound} of the value, so it is held under at most 256 characters (or
 *       the fixed-size digest form), and a second request with an equal value spends the same budget;
 *   <li>no rate-limit header carries the value (a client's CR LF cannot reach the response head).
 * </ol>
 *
 * <p>Tries default to jqwik's 1,000 per property (a few seconds); a longer run:
 * {@code mvn -B -pl agent -am verify -Dtest=KeyExtractionPropertyTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Djqwik.tries.default=100000}.
 */
class KeyExtractionPropertyTest {

    private static Path dir;
    private static RuleSetHolder holder;

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("limiter-key-fuzz");
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, """
                version: 1
                response: { headers: both }
                rules:
                  - id: by-header
                    match: { http: { path: /h } }
                    key: header:X-Api-Key
                    limit: 1000000000
                    window: 1h
                    max-keys: 1000
                  - id: by-param
                    match: { http: { path: /p } }
                    key: param:k
                    limit: 1000000000
                    window: 1h
                    max-keys: 1000
                """);
        holder = RuleSetHolder.open(file);
        LimiterBridge.install(new ServletLimiter(holder, new ThrottledLog("dev.limiter.test", 0)));
    }

    @AfterContainer
    static void stop() throws Exception {
        LimiterBridge.install(null);
        holder.close();
        Files.deleteIfExists(dir.resolve("rules.yml"));
        Files.deleteIfExists(dir);
    }

    @Property
    void anyHeaderValueIsCountedUnderItsBoundedKeyAndNeverEchoed(@ForAll("values") String value) {
        checkTwice("/h", "by-header", value);
    }

    @Property
    void anyParameterValueIsCountedUnderItsBoundedKeyAndNeverEchoed(@ForAll("values") String value) {
        checkTwice("/p", "by-param", value);
    }

    private static void checkTwice(String path, String ruleId, String value) {
        Rule rule = holder.current().rule(ruleId);
        rule.limiter().reset(); // each try on an empty table: a long run never fills max-keys
        long[] out = new long[Outcome.SIZE];
        String key = KeyBound.bound(value);
        assertThat(key.length()).isLessThanOrEqualTo(KeyBound.MAX_CHARS);
        long before = rule.limiter().remaining(key, out);
        long errors = rule.stats().errors().sum();
        for (int i = 0; i < 2; i++) {
            FakeHttp http = new FakeHttp("jakarta.servlet", path);
            if (path.equals("/h")) {
                http.requestHeaders.put("X-Api-Key", value);
            } else {
                http.parameters.put("k", value);
            }
            boolean rejected;
            try {
                rejected = LimiterBridge.servletEnter(http.request, http.response);
            } finally {
                LimiterBridge.servletExit();
            }
            assertThat(rejected).isFalse();
            assertThat(http.responseHeaders).containsKey("RateLimit");
            if (value.length() >= 3) {
                assertThat(http.responseHeaders.values()).noneMatch(header -> header.contains(value));
            }
            assertThat(String.join("", http.responseHeaders.values())).doesNotContainPattern("[\\r\\n\\x00]");
        }
        assertThat(rule.limiter().remaining(key, out)).isEqualTo(before - 2);
        assertThat(rule.stats().errors().sum()).isEqualTo(errors);
    }

    @Provide
    Arbitrary<String> values() {
        Arbitrary<String> anyUnit = Arbitraries.strings().all().ofMaxLength(40);
        Arbitrary<String> hostile = Arbitraries.strings().withChars("\r\n\u0000\u0085\u2028\ud800\udc00\u00ff\"; ,=")
                .withCharRange('a', 'c').ofMaxLength(40);
        Arbitrary<String> long_ = Arbitraries.strings().withCharRange('a', 'b').ofMinLength(250).ofMaxLength(2000);
        return Arbitraries.oneOf(anyUnit, hostile, long_);
    }
}
