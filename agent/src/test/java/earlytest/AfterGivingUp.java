package earlytest;

import java.util.function.Function;

/** Loaded by one test of RulesAwaitWeavingTest while the rules are being parsed (each class by one test only). */
public class AfterGivingUp implements Function<String, String> {

    @Override
    public String apply(String argument) {
        return "AfterGivingUp " + argument;
    }
}
