package methodtest;

/** Called in a tight loop while a reload adds a rule for it. */
public class LoopService {

    public int call(int i) {
        return i + 1;
    }
}
