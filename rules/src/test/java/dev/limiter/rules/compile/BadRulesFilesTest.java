package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file in {@code bad/} must fail with exactly the messages and positions in the {@code .expected} file
 * next to it: all problems at once, each as {@code file:line:col: message}.
 */
class BadRulesFilesTest {

    static Stream<Path> badFiles() throws IOException, URISyntaxException {
        Path directory = Path.of(BadRulesFilesTest.class.getResource("/bad").toURI());
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.filter(p -> p.toString().endsWith(".yml")).sorted().toList();
        }
        return files.stream();
    }

    @Test
    void thereAreAtLeastThirtyBadFiles() throws Exception {
        assertThat(badFiles().count()).isGreaterThanOrEqualTo(30);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFiles")
    void reportsExactMessagesAndPositions(Path file) throws IOException {
        String expected = Files.readString(Path.of(file.toString().replace(".yml", ".expected")),
                StandardCharsets.UTF_8);

        RulesException error = catchThrowableOfType(RulesException.class,
                () -> RuleSetLoader.load(file, RuleSet.empty()));

        assertThat(error).as("a bad file must be rejected").isNotNull();
        assertThat(error.getMessage() + "\n").isEqualTo(expected);
        assertThat(error.errors()).allSatisfy(e -> {
            assertThat(e.file()).isEqualTo(file.getFileName().toString());
            assertThat(e.line()).isPositive();
            assertThat(e.column()).isPositive();
        });
    }
}
