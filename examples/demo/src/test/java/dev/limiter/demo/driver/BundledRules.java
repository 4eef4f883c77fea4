package dev.limiter.demo.driver;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.RuleSetLoader;
import java.nio.file.Path;

/** Loads {@code examples/rules.yml}, the file the demo and the quickstart ship (path set by the POM). */
final class BundledRules {

    private BundledRules() {
    }

    static Path file() {
        return Path.of(System.getProperty("limiter.demo.rules", "../rules.yml"));
    }

    static RuleSet load() {
        return RuleSetLoader.load(file(), RuleSet.empty());
    }
}
