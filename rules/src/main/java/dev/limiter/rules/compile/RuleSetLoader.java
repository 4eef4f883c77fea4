package dev.limiter.rules.compile;

import dev.limiter.core.clock.Clock;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;
import dev.limiter.rules.yaml.YamlTreeReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads, validates and compiles a rules file into a {@link RuleSet}.
 *
 * <p>The contract that makes reload safe: the result is a complete, valid rule set or a {@link RulesException}
 * carrying every problem with its {@code file:line:col}; nothing else escapes (the fuzz tests check this), and
 * a failed load changes nothing. A successful load with a {@code previous} set carries the live state of
 * rules whose id and strategy survive (see {@code docs/rules.md}) and applies their new limits to it: the
 * caller is expected to publish the returned set. To only check a file, pass {@link RuleSet#empty()}.
 */
public final class RuleSetLoader {

    private RuleSetLoader() {
    }

    /** Loads {@code file}; limiters read time from the shared coarse clock. */
    public static RuleSet load(Path file, RuleSet previous) {
        return load(file, previous, null);
    }

    /**
     * Loads {@code file}, with limiters reading time from {@code clock} (null: the shared coarse clock).
     *
     * @throws RulesException every problem of the file, or why it could not be read
     */
    public static RuleSet load(Path file, RuleSet previous, Clock clock) {
        return load(file, previous, clock, LimiterFactory.LOCAL);
    }

    /**
     * Loads {@code file}, giving rules that need a new limiter one from {@code factory} (the agent's puts
     * {@code store: redis} rules in Redis; null means {@link LimiterFactory#LOCAL}).
     *
     * @throws RulesException every problem of the file, or why it could not be read
     */
    public static RuleSet load(Path file, RuleSet previous, Clock clock, LimiterFactory factory) {
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        FileProblems problems = new FileProblems(name);
        String text = read(file, problems);
        problems.throwIfAny();
        return parse(text, name, file, previous, clock, problems, factory);
    }

    /**
     * Loads {@code file} from {@code content}, its bytes as the caller read them (so a file is read once even
     * when its bytes were needed before the parse); otherwise like {@link #load(Path, RuleSet, Clock,
     * LimiterFactory)}.
     *
     * @throws RulesException every problem of the content
     */
    public static RuleSet load(Path file, byte[] content, RuleSet previous, Clock clock, LimiterFactory factory) {
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        FileProblems problems = new FileProblems(name);
        String text = decode(content, problems);
        problems.throwIfAny();
        return parse(text, name, file, previous, clock, problems, factory);
    }

    /**
     * The bytes of {@code file}, or null if it cannot be read or is larger than a rules file may be (loading the
     * path then says why).
     */
    public static byte[] readBytes(Path file) {
        return RulesFileBytes.read(file, new FileProblems(String.valueOf(file)));
    }

    /**
     * Compiles rules from text ({@code fileName} is used in messages); for tests and the validate command.
     *
     * @throws RulesException every problem found
     */
    public static RuleSet parse(String text, String fileName, RuleSet previous, Clock clock) {
        return parse(text, fileName, null, previous, clock, new FileProblems(fileName), LimiterFactory.LOCAL);
    }

    /** Like {@link #parse(String, String, RuleSet, Clock)} with limiters from {@code factory}. */
    public static RuleSet parse(String text, String fileName, RuleSet previous, Clock clock,
            LimiterFactory factory) {
        return parse(text, fileName, null, previous, clock, new FileProblems(fileName), factory);
    }

    private static RuleSet parse(String text, String fileName, Path source, RuleSet previous, Clock clock,
            FileProblems problems, LimiterFactory factory) {
        try {
            YamlNode root = YamlTreeReader.read(text, problems);
            problems.throwIfAny();
            return RulesCompiler.compile(root, source, previous == null ? RuleSet.empty() : previous, clock,
                    problems, factory);
        } catch (RulesException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // a bug of ours must still come out as "this file cannot be used", never as a crash of the caller
            problems.add(1, 1, "internal error while reading the rules: " + e);
            problems.throwIfAny();
            throw new IllegalStateException("unreachable", e);
        }
    }

    private static String read(Path file, Problems problems) {
        byte[] bytes = RulesFileBytes.read(file, problems);
        return bytes == null ? null : decode(bytes, problems);
    }

    /**
     * The text of {@code bytes} as strict UTF-8, or null after reporting the first malformed byte at its line and
     * column (a file saved as Latin-1 or UTF-16 is refused where it goes wrong, not read as replacement
     * characters).
     */
    private static String decode(byte[] bytes, Problems problems) {
        if (bytes.length > YamlTreeReader.MAX_FILE_BYTES) {
            problems.add(1, 1, YamlTreeReader.tooLarge());
            return null;
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length); // UTF-8 never decodes to more chars than bytes
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (!result.isError()) {
            return out.flip().toString();
        }
        int line = 1;
        int lineStart = 0;
        for (int at = 0; at < out.position(); at++) {
            if (out.get(at) == '\n') {
                line++;
                lineStart = at + 1;
            }
        }
        problems.add(line, out.position() - lineStart + 1, String.format(
                "the file is not valid UTF-8 (byte 0x%02X): rules files are UTF-8", bytes[in.position()] & 0xff));
        return null;
    }
}
