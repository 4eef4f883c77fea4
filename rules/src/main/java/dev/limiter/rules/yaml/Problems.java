package dev.limiter.rules.yaml;

import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects every problem of one load, so a person fixes a file in one round instead of one error per attempt.
 */
public final class Problems {

    private final String file;
    private final List<RulesError> errors = new ArrayList<>();

    public Problems(String file) {
        this.file = file;
    }

    public void add(int line, int column, String message) {
        errors.add(new RulesError(file, line, column, message));
    }

    public void add(YamlNode at, String message) {
        add(at.line(), at.column(), message);
    }

    public void add(YamlNode.YamlEntry at, String message) {
        add(at.line(), at.column(), message);
    }

    public int count() {
        return errors.size();
    }

    /** Throws every problem, sorted by position (stable, so one position keeps the order found). */
    public void throwIfAny() {
        if (errors.isEmpty()) {
            return;
        }
        List<RulesError> sorted = new ArrayList<>(errors);
        sorted.sort(Comparator.comparingInt(RulesError::line).thenComparingInt(RulesError::column));
        throw new RulesException(sorted);
    }
}
