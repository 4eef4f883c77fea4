package dev.limiter.agent.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.LimiterAgent;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import jdk.jfr.Name;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * Where the manual and the code both hold a list, they hold the same one: the system properties the agent reads,
 * its arguments, the command line's exit codes and the Flight Recorder events. Each list is taken from the
 * compiled code (string constants, annotations, fields), so an item added to the code without its line in the
 * manual, or a line left in the manual after its item went, fails here.
 */
class DocumentedListsTest {

    private static final Path DOCS = Path.of("../docs");
    /** A property name in the agent's code: {@code limiter.} and lower-case words (not the jar's file name). */
    private static final Pattern PROPERTY = Pattern.compile("limiter(\\.[a-z][a-zA-Z]*)+");

    private static String doc(String name) throws IOException {
        return Files.readString(DOCS.resolve(name));
    }

    /** The rows' first cells of the markdown table that follows {@code heading} (a line containing it). */
    private static Set<String> firstCells(String markdown, String heading, Pattern cell) {
        int at = markdown.indexOf(heading);
        assertThat(at).as("the manual has '%s'", heading).isNotNegative();
        Set<String> cells = new TreeSet<>();
        boolean inTable = false;
        for (String line : markdown.substring(markdown.lastIndexOf('\n', at) + 1).split("\n")) {
            if (line.startsWith("|")) {
                inTable = true;
                Matcher m = cell.matcher(line.split("\\|")[1]);
                if (m.find()) {
                    cells.add(m.group(1));
                }
            } else if (inTable) {
                break;
            }
        }
        return cells;
    }

    /** The string labels of the {@code case "a", "b" ->} lines of the agent's source file {@code file}. */
    private static Set<String> switchCases(String file) throws IOException {
        Set<String> labels = new TreeSet<>();
        Matcher cases = Pattern.compile("case (\"[a-z-]+\"(?:, \"[a-z-]+\")*) ->")
                .matcher(Files.readString(Path.of("src/main/java/dev/limiter/agent/" + file)));
        while (cases.find()) {
            for (String label : cases.group(1).split(", ")) {
                labels.add(label.replace("\"", ""));
            }
        }
        return labels;
    }

    /** Every string constant in the agent's and the bootstrap's compiled classes. */
    private static Set<String> stringConstants() throws Exception {
        Set<String> strings = new TreeSet<>();
        for (Class<?> module : new Class<?>[] {LimiterAgent.class, dev.limiter.bootstrap.LimiterBridge.class}) {
            Path root = Path.of(module.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    try (InputStream in = Files.newInputStream(file)) {
                        new ClassReader(in).accept(new Strings(strings), ClassReader.SKIP_FRAMES);
                    }
                }
            }
        }
        return strings;
    }

    @Test
    void theSystemPropertiesTheAgentReadsAreTheOnesTheManualLists() throws Exception {
        Set<String> inCode = new TreeSet<>();
        for (String constant : stringConstants()) {
            Matcher m = PROPERTY.matcher(constant);
            if (m.matches() && !constant.equals("limiter.jar") && !constant.equals("limiter.jfc")) {
                inCode.add(constant);
            }
        }
        Set<String> documented = firstCells(doc("agent.md"), "System properties read by the agent",
                Pattern.compile("`(limiter\\.[a-zA-Z.]+)"));
        assertThat(inCode).as("properties in the code").contains("limiter.rules", "limiter.jmx");
        assertThat(documented).isEqualTo(inCode);
    }

    @Test
    void theAgentArgumentsAreTheOnesTheManualLists() throws Exception {
        Set<String> inCode = switchCases("startup/AgentArgs.java");
        Set<String> documented = firstCells(doc("agent.md"), "## Agent arguments", Pattern.compile("^ `([a-z]+)="));
        assertThat(inCode).as("arguments in the code").contains("rules", "strict");
        assertThat(documented).isEqualTo(inCode);
    }

    @Test
    void theCommandLinesExitCodesAreTheOnesTheManualLists() throws Exception {
        Set<String> inCode = new TreeSet<>();
        for (Field field : Class.forName("dev.limiter.agent.cli.ExitCode").getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                field.setAccessible(true);
                inCode.add(String.valueOf(field.getInt(null)));
            }
        }
        Set<String> documented = firstCells(doc("cli.md"), "| 0 | Done. |", Pattern.compile("^ ([0-9]+) $"));
        assertThat(documented).isEqualTo(inCode);
    }

    @Test
    void theCommandsOfTheCommandLineAreTheOnesTheManualShows() throws Exception {
        Set<String> inCode = switchCases("cli/LimiterCli.java");
        String manual = doc("cli.md");
        String usage = manual.substring(manual.indexOf("```sh"), manual.indexOf("```", manual.indexOf("```sh") + 5));
        Set<String> documented = new TreeSet<>();
        Matcher lines = Pattern.compile("java -jar limiter.jar ([a-z]+)|also ((?:--?[a-z]+(?:, )?)+)\\)")
                .matcher(usage);
        while (lines.find()) {
            if (lines.group(1) != null) {
                documented.add(lines.group(1));
            } else {
                for (String alias : lines.group(2).split(", ")) {
                    documented.add(alias);
                }
            }
        }
        assertThat(inCode).as("commands in the code").contains("validate", "status", "jfc", "version");
        assertThat(documented).isEqualTo(inCode);
    }

    @Test
    void theFlightRecorderEventsAreTheOnesTheManualAndItsSettingsList() throws Exception {
        Set<String> inCode = new TreeSet<>();
        for (String simpleName : new String[] {"RejectionEvent", "ReloadEvent", "StoreFailureEvent"}) {
            inCode.add(Class.forName("dev.limiter.agent.jfr." + simpleName).getAnnotation(Name.class).value());
        }
        try (Stream<Path> events = Files.list(Path.of("src/main/java/dev/limiter/agent/jfr"))) {
            assertThat(events.filter(p -> p.getFileName().toString().endsWith("Event.java")).count())
                    .as("every event class is listed above").isEqualTo(inCode.size());
        }
        Set<String> documented = firstCells(doc("metrics.md"), "`dev.limiter.Rejection`",
                Pattern.compile("`(dev\\.limiter\\.[A-Za-z]+)`"));
        assertThat(documented).isEqualTo(inCode);
        String settings = doc("limiter.jfc");
        for (String event : inCode) {
            assertThat(settings).as("limiter.jfc enables " + event).contains("\"" + event + "\"");
        }
    }

    /** Collects the string constants a class loads ({@code ldc}) and its fields' constant values. */
    private static final class Strings extends ClassVisitor {

        private final Set<String> into;

        Strings(Set<String> into) {
            super(Opcodes.ASM9);
            this.into = into;
        }

        @Override
        public net.bytebuddy.jar.asm.FieldVisitor visitField(int access, String name, String descriptor,
                String signature, Object value) {
            if (value instanceof String s) {
                into.add(s);
            }
            return null;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitLdcInsn(Object value) {
                    if (value instanceof String s) {
                        into.add(s);
                    }
                }
            };
        }
    }
}
