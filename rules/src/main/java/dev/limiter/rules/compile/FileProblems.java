package dev.limiter.rules.compile;

import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.yaml.Problems;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects every problem of one load of one file, so a person fixes a file in one round instead of one error
 * per attempt.
 */
public final class FileProblems implements Problems {

    private final String file;
    private final List<RulesError> errors = new ArrayList<>();

    public FileProblems(String file) {
        this.file = file;
    }

    @Override
    public void add(int line, int column, String message) {
        errors.add(new RulesError(file, line, column, message));
    }

    @Override
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
