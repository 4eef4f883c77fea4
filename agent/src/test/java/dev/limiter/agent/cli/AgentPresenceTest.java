package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentPresenceTest {

    @TempDir
    Path dir;

    private Path jar(String name, String premainClass) throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), premainClass);
        Path jar = dir.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            out.flush();
        }
        return jar;
    }

    @Test
    void theAgentsPropertySaysItIsLoaded() {
        Properties properties = new Properties();
        properties.setProperty(TargetJvm.AGENT_PROPERTY, "/opt/limiter.jar");
        assertThat(AgentPresence.loadedJar(properties, "")).isEqualTo("/opt/limiter.jar");
    }

    @Test
    void aJavaagentOptionNamingOurJarSaysItToo() throws Exception {
        Path ours = jar("renamed.jar", AgentPresence.AGENT_CLASS);
        Path other = jar("other.jar", "com.example.Agent");
        String args = "-Xmx256m -javaagent:" + other + " -javaagent:" + ours + "=rules=/etc/rules.yml -Dx=y";
        assertThat(AgentPresence.loadedJar(new Properties(), args)).isEqualTo(ours.toString());
    }

    @Test
    void otherAgentsAndMissingJarsAreNotOurs() throws Exception {
        Path other = jar("other.jar", "com.example.Agent");
        assertThat(AgentPresence.loadedJar(new Properties(), "-javaagent:" + other + " -javaagent:/nope.jar=x"))
                .isNull();
        assertThat(AgentPresence.loadedJar(new Properties(), "")).isNull();
    }
}
