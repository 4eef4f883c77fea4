package dev.limiter.demo.service;

/**
 * What {@link PriceCalculator#quote} throws when the {@code quotes} rule of {@code examples/rules.yml} rejects a
 * call: the rule names this class in {@code throw:}, and the agent constructs it with a message that says which
 * rule and when to retry.
 *
 * <p>The application's own exception, not the limiter's, so the code that catches it compiles and runs with or
 * without the agent.
 */
public final class QuoteBudgetExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public QuoteBudgetExceededException(String message) {
        super(message);
    }
}
