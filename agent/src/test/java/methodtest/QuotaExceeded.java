package methodtest;

/** A {@code throw:} class with a (String) constructor. */
public class QuotaExceeded extends RuntimeException {

    public QuotaExceeded(String message) {
        super(message);
    }
}
