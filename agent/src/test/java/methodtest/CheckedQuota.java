package methodtest;

/** A checked {@code throw:} class: only usable where the method declares it. */
public class CheckedQuota extends Exception {

    public CheckedQuota(String message) {
        super(message);
    }
}
