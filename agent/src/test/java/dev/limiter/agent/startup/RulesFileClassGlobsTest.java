package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pre-scan of a rules file's class globs ({@link RulesFile#classGlobs}): a class that no glob it finds
 * matches is named by no rule of the file, so it loads at once while the rules are parsed; the others wait for
 * them. It must find every {@code class:} glob however the YAML spells it (checked against the real parse), and
 * should leave out what cannot be one (paths, method globs, ids), so that few classes wait.
 */
class RulesFileClassGlobsTest {

    @TempDir
    Path dir;

    private static List<String> globs(String yaml) {
        String[] globs = RulesFile.classGlobs(yaml.getBytes(StandardCharsets.UTF_8));
        return globs == null ? null : List.of(globs);
    }

    /** The class globs of the file's parsed {@code method:} and {@code jaxrs:} rules. */
    private List<String> parsed(String yaml) throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, yaml);
        RuleSetHolder holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).as(yaml).isNull();
        List<String> globs = new ArrayList<>();
        for (Rule rule : holder.current().methodRules()) {
            globs.add(rule.classGlob().pattern());
        }
        for (Rule rule : holder.current().jaxrsRules()) {
            globs.add(rule.classGlob().pattern());
        }
        return globs;
    }

    private static String rule(String id, String match) {
        return "  - id: " + id + "\n    match: " + match + "\n    limit: 1\n    window: 1h\n";
    }

    @Test
    void everyClassGlobIsFoundHoweverTheFileSpellsIt() throws Exception {
        String yaml = "version: 1\n"
                + "# a comment naming com.acme.Commented\n"
                + "rules:\n"
                + rule("flow", "{ method: { class: 'com.acme.mail.*Mailer', method: 'send*' } }")
                + rule("double-quoted", "{ jaxrs: { class: \"com.acme.shop.OrderResource\", method: create } }")
                + rule("json", "{\"method\":{\"class\":\"com.acme.Json\",\"method\":\"x*\"}}")
                + rule("tight", "{method: {class: com.acme.Tight,method: run}}")
                + rule("deep", "{ method: { class: 'com.acme.**.*Service', method: '*' } }")
                + rule("unnamed-package", "{ method: { class: Batch, method: work } }")
                + rule("nested", "{ method: { class: 'com.acme.Outer$Inner', method: '?un' } }")
                + "  - id: block\n"
                + "    match:\n"
                + "      method:\n"
                + "        class:\n"
                + "          com.acme.NextLine\n"
                + "        method: go\n"
                + "    limit: 1\n"
                + "    window: 1h\n"
                + "  - id: unicode\n"
                + "    match: { method: { class: com.acme.Zähler, method: zähle } }\n"
                + "    limit: 1\n"
                + "    window: 1h\n"
                + "  - id: http\n"
                + "    match: { http: { path: /api/**, methods: [GET] } }\n"
                + "    on-limit: wait\n"
                + "    max-wait: 1s\n"
                + "    max-waiters: 2\n"
                + "    limit: 1\n"
                + "    window: 1h\n";
        List<String> parsed = parsed(yaml);
        assertThat(parsed).hasSize(9);
        List<String> found = globs(yaml);
        assertThat(found).containsAll(parsed);
        // what cannot be a class glob is left out: paths, method globs, ids, keys, values of other keys
        assertThat(found).doesNotContain("**", "api", "send*", "x*", "*", "?un", "create", "run", "flow",
                "limit", "1", "1h", "version", "match", "method", "on", "wait");
        // a comment's words are kept: they can only make a class of that very name wait
        assertThat(found).contains("com.acme.Commented");
    }

    @Test
    void theProjectsRulesFilesClassGlobsAreFound() throws Exception {
        for (Path file : List.of(Path.of("../examples/rules.yml"), Path.of("../benchmarks/startup/rules.yml"))) {
            assertThat(file).isRegularFile();
            String yaml = Files.readString(file);
            assertThat(globs(yaml)).as(file.toString()).containsAll(parsed(yaml));
        }
        // the start-up scripts' file: only its jaxrs: class, no word a program of the unnamed package could be
        String startup = Files.readString(Path.of("../benchmarks/startup/rules.yml"));
        assertThat(globs(startup)).contains("dev.limiter.it.app.quarkus.LimitedResource")
                .noneMatch(glob -> glob.equals("*") || glob.equals("**"));
    }

    @Test
    void anEscapeOrAWideEncodingMakesEveryClassACandidateAndAnUnreadableFileNone() {
        assertThat(globs("rules:\n  - match: { method: { class: \"com.acme.\\x46oo\" } }\n")).isNull();
        assertThat(RulesFile.classGlobs("r\0u\0l\0e\0s\0".getBytes(StandardCharsets.ISO_8859_1))).isNull();
        assertThat(RulesFile.classGlobs(null)).isEmpty();
        assertThat(RulesFile.read(dir.resolve("missing.yml")).classGlobs()).isEmpty();
    }

    @Test
    void aFileThatCannotNameClassesHasNoGlobs() throws Exception {
        Path file = dir.resolve("http.yml");
        Files.writeString(file, "version: 1\nrules:\n" + rule("a", "{ http: { path: /Idle } }"));
        assertThat(RulesFile.read(file).mayNameClasses()).isFalse();
        assertThat(RulesFile.read(file).classGlobs()).isEmpty();
    }
}
