package dev.limiter.it.deploy;

import static dev.limiter.it.deploy.DeployExamples.AGENT_JAR;
import static dev.limiter.it.deploy.DeployExamples.RULES_DIR;
import static dev.limiter.it.deploy.DeployExamples.at;
import static dev.limiter.it.deploy.DeployExamples.documents;
import static dev.limiter.it.deploy.DeployExamples.javaToolOptions;
import static dev.limiter.it.deploy.DeployExamples.list;
import static dev.limiter.it.deploy.DeployExamples.map;
import static dev.limiter.it.deploy.DeployExamples.named;
import static dev.limiter.it.deploy.DeployExamples.ofKind;
import static dev.limiter.it.deploy.DeployExamples.string;
import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The deployment examples that docs/deploy.md walks through, without a cluster or a container engine (neither runs
 * here):
 * <ul>
 * <li>every Kubernetes object, as written and as {@code kubectl kustomize} renders both kustomizations, against the
 * Kubernetes API's OpenAPI definitions ({@link KubernetesOpenApi}), which must also refuse three broken copies;</li>
 * <li>the pieces the guide relies on line up: the ConfigMap's key, the volumes and their mounts, the agent's path
 * in the init container, the agent image and the application image, the {@code JAVA_TOOL_OPTIONS} values, the
 * Prometheus port in the annotations, the container port and the agent argument;</li>
 * <li>the example rules files pass the agent's own {@code validate}.</li>
 * </ul>
 * The forked-server tests of this package run the two {@code JAVA_TOOL_OPTIONS} values and the ConfigMap's swap.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubernetesManifestsTest {

    private static final String JAVA_TOOL_OPTIONS =
            "-javaagent:/opt/limiter/limiter.jar=rules=/etc/limiter/rules.yml,prometheus=0.0.0.0:9464";

    private Path base;
    private Path imageLayer;
    private List<Object> rendered;
    private List<Object> renderedImageLayer;

    @BeforeAll
    void render() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(kubectlOrNull() != null, "kubectl is not on the PATH: it renders"
                + " the examples' kustomizations (kubectl kustomize, no cluster needed; kubectl 1.21 or later, whose"
                + " kustomize knows 'patches')");
        base = DeployExamples.kubernetes().resolve("base");
        imageLayer = DeployExamples.kubernetes().resolve("image-layer");
        rendered = documents(kustomize(base));
        renderedImageLayer = documents(kustomize(imageLayer));
    }

    @Test
    void everyObjectFollowsTheKubernetesApiDefinitions() {
        KubernetesOpenApi api = KubernetesOpenApi.load();
        System.out.println("Kubernetes " + api.version() + " definitions from " + api.file());
        Map<String, List<Object>> sources = new LinkedHashMap<>();
        sources.put("base/deployment.yaml", documents(base.resolve("deployment.yaml")));
        sources.put("base/service.yaml", documents(base.resolve("service.yaml")));
        sources.put("kubectl kustomize base", rendered);
        sources.put("kubectl kustomize image-layer", renderedImageLayer);
        int objects = 0;
        for (Map.Entry<String, List<Object>> source : sources.entrySet()) {
            for (Object document : source.getValue()) {
                Map<String, Object> object = map(document);
                assertThat(api.validate(object)).as(source.getKey() + ": " + object.get("kind")).isEmpty();
                objects++;
            }
        }
        assertThat(objects).isEqualTo(1 + 1 + 3 + 3);

        // the check has teeth: each of these slips is refused
        Map<String, Object> misspelt = deployment(documents(base.resolve("deployment.yaml")));
        map(misspelt, "spec", "template", "spec").put("initContainer",
                map(misspelt, "spec", "template", "spec").remove("initContainers"));
        assertThat(api.validate(misspelt)).anyMatch(problem -> problem.contains("initContainer"));

        Map<String, Object> unquotedPort = deployment(documents(base.resolve("deployment.yaml")));
        map(unquotedPort, "spec", "template", "metadata", "annotations").put("prometheus.io/port", 9464);
        assertThat(api.validate(unquotedPort)).anyMatch(problem -> problem.contains("prometheus.io/port"));

        Map<String, Object> nameless = deployment(documents(base.resolve("deployment.yaml")));
        map(list(nameless, "spec", "template", "spec", "containers").get(0)).remove("name");
        assertThat(api.validate(nameless)).anyMatch(problem -> problem.contains("name"));
    }

    @Test
    void theRulesConfigMapIsMountedWhereTheAgentReadsItAndUpdatedInPlace() {
        Map<String, Object> kustomization = map(documents(base.resolve("kustomization.yaml")).get(0));
        assertThat(at(kustomization, "generatorOptions", "disableNameSuffixHash"))
                .as("no hash suffix: an edit updates the mounted ConfigMap instead of rolling the pods")
                .isEqualTo(true);
        Map<String, Object> generator = map(list(kustomization, "configMapGenerator").get(0));
        String configMap = string(generator, "name");
        assertThat(list(generator, "files")).containsExactly("rules.yml");

        Map<String, Object> deployment = deployment(rendered);
        Map<String, Object> pod = map(deployment, "spec", "template", "spec");
        Map<String, Object> container = named(list(pod, "containers"), "shop");
        Map<String, Object> volume = named(list(pod, "volumes"), "limiter-rules");
        assertThat(string(volume, "configMap", "name")).isEqualTo(configMap);
        Map<String, Object> mount = mountOf(container, "limiter-rules");
        assertThat(mount).as("a subPath mount never sees an edit").doesNotContainKey("subPath");
        assertThat(string(mount, "mountPath")).isEqualTo(RULES_DIR);
        assertThat(javaToolOptions(container)).isEqualTo(JAVA_TOOL_OPTIONS)
                .contains("rules=" + string(mount, "mountPath") + "/rules.yml");

        Map<String, Object> generated = ofKind(rendered, "ConfigMap");
        assertThat(string(generated, "metadata", "name")).isEqualTo(configMap);
        assertThat(map(generated, "data")).containsOnlyKeys("rules.yml");
        assertThat(string(generated, "data", "rules.yml"))
                .isEqualTo(DeployExamples.read(base.resolve("rules.yml")));
        assertThat(ofKind(renderedImageLayer, "ConfigMap")).isEqualTo(generated);
    }

    @Test
    void theInitContainerCopiesTheAgentToWhereJavaToolOptionsLoadsIt() {
        Map<String, Object> pod = map(deployment(rendered), "spec", "template", "spec");
        Map<String, Object> init = named(list(pod, "initContainers"), "limiter-agent");
        Map<String, Object> app = named(list(pod, "containers"), "shop");
        assertThat(map(named(list(pod, "volumes"), "limiter-agent"))).containsKey("emptyDir");

        String initMount = string(mountOf(init, "limiter-agent"), "mountPath");
        List<Object> command = list(init, "command");
        assertThat(command).hasSize(3).first().isEqualTo("cp");
        String source = (String) command.get(1);
        assertThat(command.get(2)).isEqualTo(initMount + "/limiter.jar");
        assertThat(source).as("the jar must not sit under the emptyDir's mount, which hides it")
                .doesNotStartWith(initMount + "/");
        Matcher copy = Pattern.compile("(?m)^COPY limiter\\.jar (\\S+)$")
                .matcher(DeployExamples.read(DeployExamples.root().resolve("docker/Dockerfile.agent")));
        assertThat(copy.find()).as("Dockerfile.agent copies limiter.jar").isTrue();
        assertThat(copy.group(1)).as("where the agent image has the jar").isEqualTo(source);

        Map<String, Object> appMount = mountOf(app, "limiter-agent");
        assertThat(string(appMount, "mountPath") + "/limiter.jar").isEqualTo(AGENT_JAR);
        assertThat(at(appMount, "readOnly")).isEqualTo(true);
        assertThat(javaToolOptions(app)).startsWith("-javaagent:" + AGENT_JAR + "=");
    }

    @Test
    void theImageLayerOverlayTakesTheJarFromTheImageTheDockerfileBuilds() {
        Map<String, Object> pod = map(deployment(renderedImageLayer), "spec", "template", "spec");
        Map<String, Object> app = named(list(pod, "containers"), "shop");
        assertThat(pod.get("initContainers") == null || ((List<?>) pod.get("initContainers")).isEmpty()).isTrue();
        assertThat(list(pod, "volumes")).noneMatch(volume -> "limiter-agent".equals(map(volume).get("name")));
        assertThat(list(app, "volumeMounts")).noneMatch(mount -> AGENT_JAR.startsWith(map(mount).get("mountPath")
                + "/"));
        assertThat(string(app, "image")).isEqualTo("registry.example.com/shop:1.4-limited");
        assertThat(javaToolOptions(app)).isEqualTo(JAVA_TOOL_OPTIONS);
        assertThat(string(mountOf(app, "limiter-rules"), "mountPath")).isEqualTo(RULES_DIR);

        String dockerfile = DeployExamples.read(DeployExamples.dockerfile());
        assertThat(dockerfile).containsPattern("(?m)^ARG BASE_IMAGE=\\S+$")
                .containsPattern("(?m)^FROM \\$\\{BASE_IMAGE}$")
                .containsPattern("(?m)^COPY limiter\\.jar " + Pattern.quote(AGENT_JAR) + "$")
                .containsPattern("(?m)^COPY rules\\.yml " + Pattern.quote(DeployExamples.RULES_FILE) + "$");
        assertThat(DeployExamples.dockerfileJavaToolOptions())
                .isEqualTo("-javaagent:" + AGENT_JAR + "=" + DeployExamples.RULES_FILE);
    }

    @Test
    void thePrometheusAnnotationsNameThePortTheAgentOpens() {
        Map<String, Object> template = map(deployment(rendered), "spec", "template");
        Map<String, Object> annotations = map(template, "metadata", "annotations");
        assertThat(annotations).containsEntry("prometheus.io/scrape", "true")
                .containsEntry("prometheus.io/path", "/metrics");
        String port = string(annotations, "prometheus.io/port");
        Map<String, Object> app = named(list(template, "spec", "containers"), "shop");
        assertThat(at(named(list(app, "ports"), "metrics"), "containerPort")).isEqualTo(Integer.parseInt(port));
        assertThat(javaToolOptions(app)).endsWith(",prometheus=0.0.0.0:" + port);

        Map<String, Object> service = ofKind(rendered, "Service");
        assertThat(map(service, "spec", "selector")).isEqualTo(map(template, "metadata", "labels"));
        Object targetPort = at(list(service, "spec", "ports").get(0), "targetPort");
        assertThat(list(app, "ports")).anyMatch(containerPort -> targetPort.equals(map(containerPort).get("name")));
    }

    @Test
    void theExampleRulesFilesAreValid() throws Exception {
        for (Path rules : List.of(DeployExamples.root().resolve("docker/rules.yml"), base.resolve("rules.yml"))) {
            Command validate = run(List.of(java(), "-jar", Agent.jar().toString(), "validate", rules.toString()),
                    false);
            assertThat(validate.exit()).as(validate.output()).isZero();
            assertThat(validate.output()).contains(rules + ": OK, 2 rules");
        }
    }

    private static Map<String, Object> deployment(List<Object> documents) {
        return ofKind(documents, "Deployment");
    }

    private static Map<String, Object> mountOf(Map<String, Object> container, String volume) {
        List<Map<String, Object>> mounts = new ArrayList<>();
        for (Object mount : list(container, "volumeMounts")) {
            if (volume.equals(map(mount).get("name"))) {
                mounts.add(map(mount));
            }
        }
        assertThat(mounts).as(container.get("name") + " mounts " + volume + " once").hasSize(1);
        return mounts.get(0);
    }

    /** {@code kubectl kustomize DIR}: kustomize as kubectl carries it, which needs no cluster. */
    private static String kustomize(Path dir) throws IOException, InterruptedException {
        Command command = run(List.of(kubectl(), "kustomize", dir.toString()), true);
        assertThat(command.exit()).as("kubectl kustomize " + dir + "\n" + command.output()).isZero();
        return command.output();
    }

    private static String kubectl() {
        String kubectl = kubectlOrNull();
        if (kubectl == null) {
            throw new AssertionError("kubectl is missing");
        }
        return kubectl;
    }

    private static String kubectlOrNull() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private record Command(int exit, String output) {
    }

    /**
     * Runs {@code command}; its output is stdout, and stderr is appended, or must be empty if {@code quiet} (kubectl
     * prints deprecation warnings there: the examples must cause none).
     */
    private static Command run(List<String> command, boolean quiet) throws IOException, InterruptedException {
        Path errors = Files.createTempFile("limiter-it-deploy", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("still running after 2 minutes: " + command);
            }
            String stderr = Files.readString(errors);
            if (quiet) {
                assertThat(stderr).as("stderr of " + command).isEmpty();
                return new Command(process.exitValue(), output);
            }
            return new Command(process.exitValue(), output + stderr);
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    private static String java() {
        String jvm = System.getProperty("limiter.test.jvm", "");
        return jvm.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java").toString() : jvm;
    }
}
