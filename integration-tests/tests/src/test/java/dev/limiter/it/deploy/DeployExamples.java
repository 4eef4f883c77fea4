package dev.limiter.it.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The deployment examples that docs/deploy.md shows ({@code examples/docker}, {@code examples/kubernetes}), read
 * the way the tests need them: YAML documents as plain maps and lists (SnakeYAML), the Dockerfile's lines.
 */
final class DeployExamples {

    /** Where the image puts the agent and the rules, and so what every JAVA_TOOL_OPTIONS of the examples names. */
    static final String AGENT_JAR = "/opt/limiter/limiter.jar";
    static final String RULES_DIR = "/etc/limiter";
    static final String RULES_FILE = RULES_DIR + "/rules.yml";

    private static final Pattern ENV_LINE = Pattern.compile("(?m)^ENV JAVA_TOOL_OPTIONS=\"([^\"]*)\"\\s*$");

    private DeployExamples() {
    }

    static Path root() {
        return Path.of(System.getProperty("limiter.it.examples", "../../examples")).toAbsolutePath().normalize();
    }

    static Path dockerfile() {
        return root().resolve("docker/Dockerfile");
    }

    static Path kubernetes() {
        return root().resolve("kubernetes");
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value the Dockerfile's {@code ENV JAVA_TOOL_OPTIONS="..."} line sets. */
    static String dockerfileJavaToolOptions() {
        Matcher matcher = ENV_LINE.matcher(read(dockerfile()));
        if (!matcher.find()) {
            throw new AssertionError(dockerfile() + " has no line ENV JAVA_TOOL_OPTIONS=\"...\"");
        }
        return matcher.group(1);
    }

    /** Every YAML document of {@code text}, as maps, lists and scalars; empty documents are left out. */
    static List<Object> documents(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        List<Object> documents = new ArrayList<>();
        for (Object document : new Yaml(options).loadAll(text)) {
            if (document != null) {
                documents.add(document);
            }
        }
        return documents;
    }

    static List<Object> documents(Path file) {
        return documents(read(file));
    }

    /** The one document of {@code documents} of the given kind. */
    static Map<String, Object> ofKind(List<Object> documents, String kind) {
        List<Map<String, Object>> found = new ArrayList<>();
        for (Object document : documents) {
            if (document instanceof Map<?, ?> map && kind.equals(map.get("kind"))) {
                found.add(map(document));
            }
        }
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " documents of kind " + kind + " in " + documents);
        }
        return found.get(0);
    }

    /** {@code value} at {@code path} (map keys, or list indexes as numbers), failing with the path if absent. */
    static Object at(Object value, Object... path) {
        Object current = value;
        StringBuilder where = new StringBuilder();
        for (Object step : path) {
            where.append('.').append(step);
            if (step instanceof Integer index && current instanceof List<?> list && index < list.size()) {
                current = list.get(index);
            } else if (current instanceof Map<?, ?> map && map.containsKey(step)) {
                current = map.get(step);
            } else {
                throw new AssertionError("no " + where + " in " + value);
            }
        }
        return current;
    }

    static String string(Object value, Object... path) {
        Object found = at(value, path);
        if (!(found instanceof String text)) {
            throw new AssertionError(List.of(path) + " is not a string: " + found);
        }
        return text;
    }

    static List<Object> list(Object value, Object... path) {
        Object found = at(value, path);
        if (!(found instanceof List<?> items)) {
            throw new AssertionError(List.of(path) + " is not a list: " + found);
        }
        return new ArrayList<>(items);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value, Object... path) {
        Object found = at(value, path);
        if (!(found instanceof Map<?, ?>)) {
            throw new AssertionError(List.of(path) + " is not a map: " + found);
        }
        return (Map<String, Object>) found;
    }

    /** The entry of a list of maps whose {@code name} is {@code name} (containers, volumes, env, ports). */
    static Map<String, Object> named(List<Object> items, String name) {
        for (Object item : items) {
            if (item instanceof Map<?, ?> entry && name.equals(entry.get("name"))) {
                return map(item);
            }
        }
        throw new AssertionError("no entry named " + name + " in " + items);
    }

    /** The container's {@code JAVA_TOOL_OPTIONS} value. */
    static String javaToolOptions(Map<String, Object> container) {
        return string(named(list(container, "env"), "JAVA_TOOL_OPTIONS"), "value");
    }

    /**
     * {@code options} as they would run here: the image's paths of the agent and of the rules directory replaced by
     * this build's agent jar and a directory of the test's, and the Prometheus port by {@code prometheusPort}.
     */
    static String localized(String options, Path agentJar, Path rulesDir, int prometheusPort) {
        String local = options.replace(AGENT_JAR, agentJar.toString()).replace(RULES_DIR + "/", rulesDir + "/");
        return local.replace(":9464", ":" + prometheusPort);
    }
}
