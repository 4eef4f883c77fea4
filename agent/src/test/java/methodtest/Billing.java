package methodtest;

/** Methods whose rules name {@code throw:} classes that can and cannot be used. */
public class Billing {

    public String charge(String account) {
        return "charged " + account;
    }

    public String refund(String account) {
        return "refunded " + account;
    }

    public String audit(String account) throws CheckedQuota {
        return "audited " + account;
    }

    public String settle(String account) {
        return "settled " + account;
    }

    public String export(String account) {
        return "exported " + account;
    }
}
