package methodtest;

/** A method whose rule changes from {@code arg:0} to {@code arg:1} on a reload: it must be re-woven. */
public class Rekeyed {

    public String call(String first, String second) {
        return first + second;
    }
}
