package dev.limiter.rules;

import java.util.List;

/**
 * A rules file that cannot be used, with every problem found in it (not just the first), in file order.
 *
 * <p>Unchecked so that callers that only want "the new rules or keep the old ones" need no ceremony; the
 * loader throws nothing else for a bad file (the fuzz tests hold it to that).
 */
public final class RulesException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<RulesError> errors;

    public RulesException(List<RulesError> errors) {
        super(render(errors));
        this.errors = List.copyOf(errors);
    }

    /** Every problem, in file order; never empty. */
    public List<RulesError> errors() {
        return errors;
    }

    private static String render(List<RulesError> errors) {
        StringBuilder text = new StringBuilder();
        for (RulesError error : errors) {
            if (text.length() > 0) {
                text.append('\n');
            }
            text.append(error);
        }
        return text.toString();
    }
}
