package dev.limiter.it.jaxrs;

/**
 * The application's own exception, named by a rule's {@code throw:}: the agent constructs it with a message
 * when the rule rejects a call.
 */
public class MailQuotaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MailQuotaException(String message) {
        super(message);
    }
}
