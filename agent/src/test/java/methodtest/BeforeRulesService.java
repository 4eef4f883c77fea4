package methodtest;

/** A class a rule names that loads (and runs) before the agent has parsed its rules. */
public class BeforeRulesService {

    public String call(String argument) {
        return "before-rules " + argument;
    }
}
