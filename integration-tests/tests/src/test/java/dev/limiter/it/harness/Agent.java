package dev.limiter.it.harness;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code -javaagent:} option for the one agent jar every forked server shares (built by the agent module
 * before this module runs). Options follow the contract: {@code rules=PATH} then {@code ,name=value} pairs.
 */
public final class Agent {

    private Agent() {
    }

    public static Path jar() {
        Path jar = Locations.agentJar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("agent jar " + jar + " is missing: build the agent module first");
        }
        return jar;
    }

    /** {@code -javaagent:<jar>=rules=<rules>[,option...]}, e.g. {@code option(rules, "strict=true")}. */
    public static String option(Path rules, String... options) {
        StringBuilder arg = new StringBuilder("-javaagent:").append(jar()).append("=rules=").append(rules);
        for (String option : options) {
            arg.append(',').append(option);
        }
        return arg.toString();
    }
}
