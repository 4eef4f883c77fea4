package dev.limiter.agent.method;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which methods the planner picks and which argument each passes, from type descriptions (no weaving):
 * declared, concrete, non-synthetic methods whose names a rule matches; the first {@code arg:N} the method has.
 */
class SitePlannerTest {

    @TempDir
    Path dir;

    /** A class with every kind of member the planner must tell apart. */
    abstract static class Sample implements Callable<String> {

        Sample(String unused) {
        }

        public String send(String to, int count) {
            return to + count;
        }

        static long sendStatic(long batch) {
            return batch;
        }

        abstract void sendAbstract();

        native void sendNative();

        @Override
        public String call() {
            Runnable lambda = () -> send("x", 1);
            lambda.run();
            return "called";
        }

        private void other() {
        }
    }

    /** A covariant override: the compiler adds a bridge {@code Object call()} next to {@code String call()}. */
    static class Covariant extends Sample {

        Covariant() {
            super("x");
        }

        @Override
        void sendAbstract() {
        }
    }

    private RuleSet rules(String rules) throws IOException {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nrules:\n" + rules);
        RuleSetHolder holder = RuleSetHolder.open(file);
        assertThat(holder.lastError()).isNull();
        return holder.current();
    }

    private static String rule(String id, String className, String method, String key) {
        return "  - id: " + id + "\n    match: { method: { class: '" + className + "', method: '" + method + "' } }\n"
                + "    key: '" + key + "'\n    limit: 1\n    window: 1s\n";
    }

    @Test
    void declaredConcreteMethodsWhoseNamesMatchAreWovenStaticIncluded() throws IOException {
        RuleSet rules = rules(rule("s", Sample.class.getName(), "send*", "global"));
        List<PlannedSite> plan = plan(Sample.class, rules);
        assertThat(plan).extracting(p -> p.method().name()).containsExactlyInAnyOrder("send", "sendStatic");
        assertThat(plan).allSatisfy(p -> assertThat(p.kind()).isEqualTo(SiteKind.METHOD));
        assertThat(plan).allSatisfy(p -> assertThat(p.keyIndex()).isEqualTo(-1));
    }

    @Test
    void constructorsLambdasAndBridgesAreNeverWoven() throws IOException {
        RuleSet rules = rules(rule("all", Sample.class.getName(), "*", "global")
                + rule("cov", Covariant.class.getName(), "*", "global"));
        assertThat(plan(Sample.class, rules))
                .extracting(p -> p.method().name())
                .containsExactlyInAnyOrder("send", "sendStatic", "call", "other");
        assertThat(plan(Covariant.class, rules))
                .extracting(p -> p.method().name()).containsExactly("sendAbstract");
    }

    @Test
    void theKeyArgumentIsTheFirstArgRuleTheMethodHas() throws IOException {
        RuleSet rules = rules(rule("far", Sample.class.getName(), "send*", "arg:5")
                + rule("second", Sample.class.getName(), "send", "arg:1")
                + rule("first", Sample.class.getName(), "send*", "arg:0"));
        List<PlannedSite> plan = plan(Sample.class, rules);
        assertThat(plan).filteredOn(p -> p.method().name().equals("send")).singleElement()
                .satisfies(p -> assertThat(p.keyIndex()).isEqualTo(1));
        assertThat(plan).filteredOn(p -> p.method().name().equals("sendStatic")).singleElement()
                .satisfies(p -> assertThat(p.keyIndex()).isEqualTo(0));
    }

    @Test
    void aClassNoRuleNamesGetsNothingAndInterfacesAreSkipped() throws IOException {
        RuleSet rules = rules(rule("s", "com.acme.*", "*", "global")
                + rule("i", Callable.class.getName(), "*", "global"));
        assertThat(plan(Sample.class, rules)).isEmpty();
        assertThat(plan(Callable.class, rules)).isEmpty();
    }

    @Test
    void theIdentityChangesWithTheKeyArgumentOnly() throws IOException {
        RuleSet byFirst = rules(rule("a", Sample.class.getName(), "send", "arg:0"));
        RuleSet bySecond = rules(rule("a", Sample.class.getName(), "send", "arg:1"));
        RuleSet byFirstAgain = rules(rule("b", Sample.class.getName(), "send", "arg:0"));
        String first = plan(Sample.class, byFirst).get(0).identity();
        assertThat(plan(Sample.class, bySecond).get(0).identity()).isNotEqualTo(first);
        assertThat(plan(Sample.class, byFirstAgain).get(0).identity()).isEqualTo(first);
    }

    /** The plan for {@code type} as the weaver makes it: from its class file. */
    private static List<PlannedSite> plan(Class<?> type, RuleSet rules) {
        ClassShapes shapes = new ClassShapes(type.getClassLoader());
        ClassShape shape = shapes.find(type.getName());
        return SitePlanner.plan(shape, rules, shapes);
    }
}
