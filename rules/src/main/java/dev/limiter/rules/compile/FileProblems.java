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
 *
 * <p>What is thrown is bounded whatever the file: the first {@link #MAX_REPORTED} problems in file order and one
 * line counting the rest, each message at most {@link #MAX_MESSAGE} characters (a message may quote the file, and
 * a 1 MiB file of mistakes would otherwise become a log record of many MB on every failed reload).
 */
public final class FileProblems implements Problems {

    static final int MAX_REPORTED = 100;
    static final int MAX_MESSAGE = 500;

    private final String file;
    private final List<RulesError> errors = new ArrayList<>();

    public FileProblems(String file) {
        this.file = file;
    }

    @Override
    public void add(int line, int column, String message) {
        String text = message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE - 3) + "...";
        errors.add(new RulesError(file, line, column, text));
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
        if (sorted.size() > MAX_REPORTED) {
            RulesError last = sorted.get(MAX_REPORTED - 1);
            int more = sorted.size() - MAX_REPORTED;
            sorted = new ArrayList<>(sorted.subList(0, MAX_REPORTED));
            sorted.add(new RulesError(file, last.line(), last.column(), "and " + more + " more "
                    + (more == 1 ? "problem" : "problems") + " after this one, not listed"));
        }
        throw new RulesException(sorted);
    }
}
