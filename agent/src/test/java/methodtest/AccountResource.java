package methodtest;

/** Implements {@link AccountApi}: a resource method by annotation inheritance, keyed by its path parameter. */
public class AccountResource implements AccountApi {

    @Override
    public String balance(String account) {
        return "balance " + account;
    }
}
