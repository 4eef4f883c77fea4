package methodtest;

/** Loaded before any rule names it; a reload then adds (and removes) a rule for it. */
public class LateService {

    public String call(String who) {
        return "called " + who;
    }

    public String other(String who) {
        return "other " + who;
    }
}
