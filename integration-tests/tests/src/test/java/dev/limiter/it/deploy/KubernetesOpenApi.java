package dev.limiter.it.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Validates Kubernetes objects against the API's own OpenAPI (Swagger 2.0) definitions, as kubeconform does: each
 * object's {@code apiVersion} and {@code kind} name its definition (by {@code x-kubernetes-group-version-kind}),
 * which becomes a JSON schema (draft 4, validated by networknt's json-schema-validator) after the changes
 * kubeconform's strict schemas make: an object with {@code properties} admits no other key (a misspelt field is
 * an error, where the API server would drop it silently), {@code IntOrString} is a string or an integer and
 * {@code Quantity} a string or a number. Types, names, nesting and required fields are checked; defaults,
 * value ranges and the API server's own validation (admission, name syntax, cross-field rules) are not.
 *
 * <p>The definitions come from a Debian package: {@code golang-k8s-kube-openapi-dev} carries whole Kubernetes API
 * documents as kube-openapi's test data (Debian 12's: 1.13, and 1.14 as an aggregated API); the newest is used,
 * the fullest of those of its version. Nothing of it is
 * installed: {@code scripts/lib/prerequisites.sh} extracts the package into {@link #CACHE} (or
 * {@code $LIMITER_KUBE_OPENAPI}); an installed package ({@code /usr/share/gocode}) is used as well.
 */
final class KubernetesOpenApi {

    /** Where the package's files are extracted by default (its own paths below that). */
    static final Path CACHE = Path.of(System.getProperty("user.home"), ".cache", "limiter", "kube-openapi");

    private static final String PACKAGE_TREE = "usr/share/gocode/src/k8s.io/kube-openapi";
    private static final String DEPLOYMENT = "io.k8s.api.apps.v1.Deployment";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code v1.9.0} before {@code v1.13.0}. */
    private static final Comparator<String> VERSIONS = Comparator.comparing(KubernetesOpenApi::versionNumbers,
            (a, b) -> {
                for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                    int order = Integer.compare(a.get(i), b.get(i));
                    if (order != 0) {
                        return order;
                    }
                }
                return Integer.compare(a.size(), b.size());
            });

    /** The newer Kubernetes version, then (an aggregated API and one of its parts) the more definitions. */
    private static final Comparator<KubernetesOpenApi> NEWEST_THEN_FULLEST = Comparator
            .comparing((KubernetesOpenApi spec) -> spec.version, VERSIONS)
            .thenComparingInt(spec -> spec.definitions.size());

    private final Path file;
    private final String version;
    private final ObjectNode definitions;
    private final Map<String, JsonSchema> schemas = new HashMap<>();

    private KubernetesOpenApi(Path file, String version, ObjectNode definitions) {
        this.file = file;
        this.version = version;
        this.definitions = definitions;
    }

    /** The newest Kubernetes definitions found; fails with how to get them if there are none. */
    static KubernetesOpenApi load() {
        List<Path> roots = new ArrayList<>();
        String configured = System.getenv("LIMITER_KUBE_OPENAPI");
        roots.add(configured == null || configured.isBlank() ? CACHE : Path.of(configured));
        roots.add(Path.of("/"));
        KubernetesOpenApi newest = null;
        for (Path root : roots) {
            for (Path candidate : candidates(root.resolve(PACKAGE_TREE))) {
                KubernetesOpenApi spec = read(candidate).orElse(null);
                if (spec != null && (newest == null || NEWEST_THEN_FULLEST.compare(spec, newest) > 0)) {
                    newest = spec;
                }
            }
        }
        if (newest == null) {
            throw new AssertionError("The Kubernetes OpenAPI definitions are missing: none under " + roots
                    + ". scripts/test extracts Debian's package golang-k8s-kube-openapi-dev (its test data carries"
                    + " them) into " + CACHE + "; by hand: cd $(mktemp -d) && apt-get download"
                    + " golang-k8s-kube-openapi-dev && dpkg-deb -x golang-k8s-kube-openapi-dev_*.deb " + CACHE);
        }
        return newest;
    }

    /** The JSON files of kube-openapi's test data big enough to be a whole API (over 1 MB). */
    private static List<Path> candidates(Path tree) {
        if (!Files.isDirectory(tree)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(tree)) {
            return files.filter(path -> path.toString().contains("/testdata/"))
                    .filter(path -> path.getFileName().toString().endsWith(".json"))
                    .filter(path -> size(path) > 1_000_000)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The file as Kubernetes definitions, if it is a Swagger 2.0 document of the Kubernetes API with Deployments. */
    private static Optional<KubernetesOpenApi> read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            return Optional.empty();
        }
        JsonNode definitions = root.path("definitions");
        if (!"2.0".equals(root.path("swagger").asText()) || !"Kubernetes".equals(root.path("info").path("title")
                .asText()) || !definitions.has(DEPLOYMENT) || !(definitions instanceof ObjectNode objects)) {
            return Optional.empty();
        }
        return Optional.of(new KubernetesOpenApi(file, root.path("info").path("version").asText(),
                strict(objects.deepCopy())));
    }

    /** The Kubernetes version of the definitions, e.g. {@code v1.13.0}. */
    String version() {
        return version;
    }

    Path file() {
        return file;
    }

    /** The problems of {@code object} (a parsed manifest document), empty if it is valid. */
    List<String> validate(Map<String, Object> object) {
        String definition = definitionOf(String.valueOf(object.get("apiVersion")), String.valueOf(object.get("kind")));
        if (definition == null) {
            return List.of("no definition of apiVersion " + object.get("apiVersion") + ", kind " + object.get("kind")
                    + " in Kubernetes " + version);
        }
        JsonSchema schema = schemas.computeIfAbsent(definition, this::schema);
        List<String> problems = new ArrayList<>();
        for (ValidationMessage message : schema.validate(JSON.valueToTree(object))) {
            problems.add(message.getMessage());
        }
        problems.sort(null);
        return problems;
    }

    /** The definition whose {@code x-kubernetes-group-version-kind} is this object's, or null. */
    private String definitionOf(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        for (Iterator<Map.Entry<String, JsonNode>> it = definitions.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> entry = it.next();
            for (JsonNode gvk : entry.getValue().path("x-kubernetes-group-version-kind")) {
                if (group.equals(gvk.path("group").asText()) && version.equals(gvk.path("version").asText())
                        && kind.equals(gvk.path("kind").asText())) {
                    return entry.getKey();
                }
            }
        }
        return null;
    }

    /** The definition as the root of a draft 4 schema that carries every definition its references reach. */
    private JsonSchema schema(String definition) {
        ObjectNode root = ((ObjectNode) definitions.get(definition)).deepCopy();
        root.put("$schema", "http://json-schema.org/draft-04/schema#");
        root.set("definitions", definitions);
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(root);
    }

    /** kubeconform's strict reading of the definitions (see the class comment). */
    private static ObjectNode strict(ObjectNode definitions) {
        ArrayNode stringOrInteger = JsonNodeFactory.instance.arrayNode();
        stringOrInteger.addObject().put("type", "string");
        stringOrInteger.addObject().put("type", "integer");
        ArrayNode stringOrNumber = JsonNodeFactory.instance.arrayNode();
        stringOrNumber.addObject().put("type", "string");
        stringOrNumber.addObject().put("type", "number");
        definitions.fields().forEachRemaining(entry -> closeObjects(entry.getValue()));
        replace(definitions, "io.k8s.apimachinery.pkg.util.intstr.IntOrString", stringOrInteger);
        replace(definitions, "io.k8s.apimachinery.pkg.api.resource.Quantity", stringOrNumber);
        return definitions;
    }

    private static void replace(ObjectNode definitions, String name, ArrayNode oneOf) {
        ObjectNode replacement = JsonNodeFactory.instance.objectNode();
        replacement.put("description", definitions.path(name).path("description").asText());
        replacement.set("oneOf", oneOf);
        definitions.set(name, replacement);
    }

    /** Every schema object below {@code node} that lists {@code properties} admits no others. */
    private static void closeObjects(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.has("properties") && !object.has("additionalProperties")) {
                object.put("additionalProperties", false);
            }
            JsonNode properties = object.get("properties");
            if (properties != null) {
                properties.forEach(KubernetesOpenApi::closeObjects);
            }
            for (String key : List.of("items", "additionalProperties")) {
                if (object.get(key) instanceof ObjectNode child) {
                    closeObjects(child);
                }
            }
        }
    }

    private static List<Integer> versionNumbers(String version) {
        List<Integer> numbers = new ArrayList<>();
        for (String part : version.replaceFirst("^v", "").split("[.-]")) {
            if (!part.chars().allMatch(Character::isDigit) || part.isEmpty()) {
                break;
            }
            numbers.add(Integer.parseInt(part));
        }
        return numbers;
    }
}
