package annotest;

/** The application's own rejection, named by {@code throwClass}. */
public class QuotaExceeded extends RuntimeException {

    public QuotaExceeded(String message) {
        super(message);
    }
}
