package dev.limiter.core.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.clock.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The example of docs/library.md is {@link QuotaClient} word for word (checked here), and it does what the page
 * says: 10 calls a second in all, 100 a minute per customer, refusals that say when to retry.
 */
class LibraryDocExampleTest {

    @Test
    void thePageShowsTheCompiledExample() throws Exception {
        String source = Files.readString(Path.of("src/test/java/dev/limiter/core/guard/QuotaClient.java"),
                StandardCharsets.UTF_8);
        String example = source.substring(source.indexOf("// doc:start\n") + "// doc:start\n".length(),
                source.indexOf("// doc:end"));
        String page = Files.readString(Path.of("../docs/library.md"), StandardCharsets.UTF_8);
        assertThat(page).contains("```java\n" + example + "```");
    }

    @Test
    void theExampleLimitsAsThePageSays() {
        ManualClock clock = new ManualClock(1_000_000);
        QuotaClient client = new QuotaClient(Guard.create(clock));
        for (int i = 0; i < 10; i++) {
            assertThat(client.call("c" + i)).isEqualTo("called for c" + i);
        }
        assertThat(client.call("c0")).startsWith("busy, retry in ").endsWith("ms");
        clock.advance(1_000);
        // one customer, one call per 100 ms: the partner's 10 a second keep up, the customer's 100 a minute do
        // not (the clock stays inside one minute: 1,001 s to 1,011 s)
        for (int i = 0; i < 100; i++) {
            assertThat(client.call("same")).isEqualTo("called for same");
            clock.advance(100);
        }
        assertThat(client.call("same")).matches("slow down, retry in \\d+s");
    }
}
