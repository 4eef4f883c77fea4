package dev.limiter.rules.yaml;

/**
 * Where reading the file reports what is wrong with it, at a position, instead of throwing: validation goes on
 * and a person fixes a file in one round instead of one error per attempt.
 *
 * <p>An interface so that reading the YAML knows nothing of how problems are collected and thrown (the
 * compiler's {@code FileProblems} turns them into a {@code RulesException}).
 */
public interface Problems {

    /** Records a problem at a 1-based line and column. */
    void add(int line, int column, String message);

    /** How many problems have been recorded so far. */
    int count();

    default void add(YamlNode at, String message) {
        add(at.line(), at.column(), message);
    }

    default void add(YamlNode.YamlEntry at, String message) {
        add(at.line(), at.column(), message);
    }
}
