package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import jdk.jfr.Configuration;
import jdk.jfr.Name;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * {@code java -jar limiter.jar jfc}: prints docs/limiter.jfc as it is, and that file is a JFC that enables
 * every JFR event type the agent defines (the {@code jdk.jfr.Event} classes of {@code dev.limiter.agent.jfr}).
 */
class JfcCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return LimiterCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String docsJfc() throws Exception {
        return Files.readString(Path.of(System.getProperty("basedir", "."), "..", "docs", "limiter.jfc"));
    }

    private String printed() {
        assertThat(run("jfc")).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsDocsLimiterJfcAsItIs() throws Exception {
        assertThat(printed()).isEqualTo(docsJfc());
    }

    @Test
    void takesNoArguments() {
        assertThat(run("jfc", "extra")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("jfc takes no arguments");
    }

    /** The event names the agent defines: every jdk.jfr.Event class in dev.limiter.agent.jfr, by its @Name. */
    private static Set<String> agentEventTypes() throws Exception {
        URI folder = JfcCommandTest.class.getResource("/dev/limiter/agent/jfr/FlightEvents.class").toURI();
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of(folder).getParent())) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String simple = file.getFileName().toString().replace(".class", "");
                Class<?> type = Class.forName("dev.limiter.agent.jfr." + simple, false,
                        JfcCommandTest.class.getClassLoader());
                if (jdk.jfr.Event.class.isAssignableFrom(type)) {
                    Name name = type.getAnnotation(Name.class);
                    assertThat(name).as(type + " has a @Name").isNotNull();
                    names.add(name.value());
                }
            }
        }
        return names;
    }

    @Test
    void isAJfcThatEnablesEveryEventTypeOfTheAgent() throws Exception {
        String jfc = printed();
        Set<String> events = agentEventTypes();
        assertThat(events).contains("dev.limiter.Rejection", "dev.limiter.Reload", "dev.limiter.StoreFailure");

        // well-formed XML in JFC's shape: <configuration version="2.0"> with one <event name=...> per type
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(new InputSource(new StringReader(jfc)));
        Element root = document.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("configuration");
        assertThat(root.getAttribute("version")).isEqualTo("2.0");
        NodeList nodes = root.getElementsByTagName("event");
        List<String> named = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            named.add(((Element) nodes.item(i)).getAttribute("name"));
        }
        assertThat(named).containsExactlyInAnyOrderElementsOf(events);

        // and JFR itself reads it as a recording configuration that enables each of them
        Configuration configuration = Configuration.create(new StringReader(jfc));
        assertThat(configuration.getLabel()).isEqualTo("limiter");
        Map<String, String> settings = configuration.getSettings();
        for (String event : events) {
            assertThat(settings).as(event).containsEntry(event + "#enabled", "true");
        }
    }
}
