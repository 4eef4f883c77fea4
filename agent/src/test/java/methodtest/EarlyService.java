package methodtest;

/** Loaded before the transformer is installed (as with a late attach); a rule names it from the start. */
public class EarlyService {

    public String call(String who) {
        return "early " + who;
    }
}
