package methodtest;

/** A {@code throw:} class the agent cannot construct: its only constructor takes an int. */
public class CodedQuota extends RuntimeException {

    public CodedQuota(int code) {
        super("code " + code);
    }
}
