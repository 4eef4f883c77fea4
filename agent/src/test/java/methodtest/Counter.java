package methodtest;

/** The target of the allocation measurement: a woven method keyed on a String argument. */
public class Counter {

    private long total;

    public long count(String key) {
        return ++total;
    }
}
