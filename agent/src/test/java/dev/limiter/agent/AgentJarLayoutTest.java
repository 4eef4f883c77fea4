package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * Checks the packaged {@code limiter.jar} (runs after {@code package}, bound to {@code integration-test}): only
 * the bootstrap API and the premain class are visible at the root, everything else is hidden under
 * {@code inst/} as {@code .classdata}, third-party code is relocated, and the manifest declares the agent.
 */
class AgentJarLayoutTest {

    private static JarFile jar() throws Exception {
        return new JarFile(new File(System.getProperty("limiter.agent.jar", "target/limiter.jar")));
    }

    @Test
    void onlyTheBootstrapApiAndPremainAreAtTheRoot() throws Exception {
        List<String> rootClasses = new ArrayList<>();
        List<String> hiddenClassFiles = new ArrayList<>();
        try (JarFile jar = jar()) {
            for (JarEntry entry : java.util.Collections.list(jar.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class")) {
                    if (name.startsWith("inst/")) {
                        hiddenClassFiles.add(name);
                    } else {
                        rootClasses.add(name);
                    }
                }
            }
            assertThat(rootClasses).isNotEmpty().allSatisfy(name -> assertThat(name).matches(
                    "dev/limiter/(api/.*|bootstrap/.*|agent/LimiterAgent(\\$DefinerLoader)?)\\.class"));
            // what premain loads in a loader of its own to define the bridge in the boot loader
            assertThat(jar.getJarEntry("inst/dev/limiter/agent/boot/BootDefiner.classdata")).isNotNull();
            assertThat(hiddenClassFiles).isEmpty();
            assertThat(jar.getJarEntry("inst/dev/limiter/agent/startup/Startup.classdata")).isNotNull();
            assertThat(jar.getJarEntry("inst/dev/limiter/shaded/bytebuddy/jar/asm/ClassReader.classdata")).isNotNull();
            assertThat(jar.getJarEntry("inst/net/bytebuddy/jar/asm/ClassReader.classdata")).isNull();
            // of Byte Buddy only its repackaged ASM is carried: every start opens and indexes the whole jar
            assertThat(jar.getJarEntry("inst/dev/limiter/shaded/bytebuddy/ByteBuddy.classdata")).isNull();
            assertThat(java.util.Collections.list(jar.entries())).filteredOn(e -> e.getName().startsWith(
                    "inst/dev/limiter/shaded/bytebuddy/") && !e.getName().endsWith("/")).allSatisfy(e -> assertThat(
                    e.getName()).startsWith("inst/dev/limiter/shaded/bytebuddy/jar/asm/"));
            assertThat(java.util.Collections.list(jar.entries())).noneMatch(e -> e.getName().startsWith("com/")
                    || e.getName().startsWith("net/") || e.getName().startsWith("org/")
                    || e.getName().startsWith("inst/com/") || e.getName().startsWith("inst/org/yaml"));
        }
    }

    @Test
    void theBootClassListNamesEveryBridgeClassAfterItsSuperTypes() throws Exception {
        try (JarFile jar = jar()) {
            List<String> bridge = new ArrayList<>();
            for (JarEntry entry : java.util.Collections.list(jar.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && (name.startsWith("dev/limiter/api/")
                        || name.startsWith("dev/limiter/bootstrap/"))) {
                    bridge.add(name.substring(0, name.length() - 6).replace('/', '.'));
                }
            }
            List<String> listed;
            try (java.io.InputStream in = jar.getInputStream(jar.getJarEntry("META-INF/limiter-boot-classes"))) {
                listed = List.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n"));
            }
            assertThat(listed).containsExactlyInAnyOrderElementsOf(bridge);
            // defined one by one in that order, in a loader that sees nothing else of ours, none fails
            java.util.Map<String, byte[]> bytes = new java.util.HashMap<>();
            for (String name : listed) {
                try (java.io.InputStream in = jar.getInputStream(jar.getJarEntry(name.replace('.', '/') + ".class"))) {
                    bytes.put(name, in.readAllBytes());
                }
            }
            class Definer extends ClassLoader {
                Definer() {
                    super(null);
                }

                @Override
                protected Class<?> findClass(String name) throws ClassNotFoundException {
                    throw new ClassNotFoundException(name + " is not defined yet");
                }

                Class<?> define(String name) {
                    byte[] b = bytes.get(name);
                    return defineClass(name, b, 0, b.length);
                }
            }
            Definer definer = new Definer();
            for (String name : listed) {
                assertThat(definer.define(name).getName()).isEqualTo(name);
            }
        }
    }

    @Test
    void theManifestDeclaresTheAgentAndTheCli() throws Exception {
        try (JarFile jar = jar()) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).isEqualTo("dev.limiter.agent.LimiterAgent");
            assertThat(main.getValue("Agent-Class")).isEqualTo("dev.limiter.agent.LimiterAgent");
            assertThat(main.getValue("Main-Class")).isEqualTo("dev.limiter.agent.LimiterAgent");
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
        }
    }
}
