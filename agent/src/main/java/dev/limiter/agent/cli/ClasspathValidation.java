package dev.limiter.agent.cli;

import dev.limiter.agent.method.LimitDeclarations;
import dev.limiter.agent.startup.StrategyJars;
import dev.limiter.agent.weave.AnnotationPresence;
import dev.limiter.agent.weave.LibraryPackages;
import dev.limiter.core.clock.SystemClock;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.AnnotationRule;
import dev.limiter.rules.compile.RuleSetLoader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * {@code validate --classpath app.jar[:dir...] [RULES.yml]}: checks the {@code @Limit} annotations of an
 * application's classes as the agent will, and the rules file with them.
 *
 * <p>Each class file is read as the agent reads it (the constant-pool check, then the annotations from the
 * bytes, nothing loaded) and each annotation compiled by the same code ({@link AnnotationRule}). It prints one
 * line per annotated method, says which annotations a rule of the file overrides, and every problem on stderr as
 * {@code class#method: attribute: message}. Exit codes as {@link ExitCode}: 0 all valid, 1 a problem, 2 usage.
 */
final class ClasspathValidation {

    private ClasspathValidation() {
    }

    /** True if these {@code validate} arguments ask for a class path check. */
    static boolean wanted(String[] args) {
        for (String arg : args) {
            if (arg.equals("--classpath") || arg.startsWith("--classpath=")) {
                return true;
            }
        }
        return false;
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        ValidateArguments arguments;
        try {
            arguments = ValidateArguments.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("validate --classpath takes a class path, optionally --strategies and one rules file,"
                    + " not '" + e.getMessage() + "'");
            return ExitCode.USAGE;
        }
        String classpath = arguments.classpath();
        String strategies = arguments.strategies();
        String file = arguments.file();
        if (classpath == null || classpath.isEmpty()) {
            err.println("validate --classpath needs jars or directories, separated by '" + File.pathSeparator + "'");
            return ExitCode.USAGE;
        }
        try {
            StrategyJars.load(StrategyJars.parse(strategies));
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return ExitCode.USAGE;
        }
        RuleSet rules = RuleSet.empty();
        int result = ExitCode.OK;
        if (file != null) {
            result = ValidateCommand.validate(Path.of(file), out, err);
            if (result == ExitCode.OK) {
                try {
                    rules = RuleSetLoader.load(Path.of(file), RuleSet.empty());
                } catch (RulesException e) {
                    result = ExitCode.FAILED; // changed since: reported by the next run
                }
            }
        }
        Scan scan = new Scan(rules, file == null ? null : Path.of(file).getFileName().toString(), out, err);
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path path = Path.of(entry);
            try {
                if (Files.isDirectory(path)) {
                    scan.directory(path);
                } else if (Files.isRegularFile(path)) {
                    scan.jar(path);
                } else {
                    err.println(entry + ": no such jar or directory");
                    scan.problems++;
                }
            } catch (IOException | RuntimeException e) {
                err.println(entry + ": cannot be read (" + e + ")");
                scan.problems++;
            }
        }
        out.println("classpath: " + scan.methods + (scan.methods == 1 ? " annotated method" : " annotated methods")
                + ", " + scan.problems + (scan.problems == 1 ? " problem" : " problems"));
        return scan.problems > 0 ? ExitCode.FAILED : result;
    }

    /** What one run has seen. */
    private static final class Scan {

        private final RuleSet rules;
        private final String fileName;
        private final PrintStream out;
        private final PrintStream err;
        private final Map<String, String> valuesById = new HashMap<>();
        private final Map<String, String> firstById = new HashMap<>();
        int methods;
        int problems;

        Scan(RuleSet rules, String fileName, PrintStream out, PrintStream err) {
            this.rules = rules;
            this.fileName = fileName;
            this.out = out;
            this.err = err;
        }

        void directory(Path root) throws IOException {
            List<Path> classes = new ArrayList<>();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> p.toString().endsWith(".class")).sorted().forEach(classes::add);
            }
            for (Path file : classes) {
                classFile(Files.readAllBytes(file));
            }
        }

        void jar(Path path) throws IOException {
            try (JarFile jar = new JarFile(path.toFile())) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            classFile(in.readAllBytes());
                        }
                    }
                }
            }
        }

        private void classFile(byte[] bytes) {
            if (!AnnotationPresence.mayDeclare(bytes)) {
                return;
            }
            LimitDeclarations declared = LimitDeclarations.read(bytes);
            if (declared == null) {
                return;
            }
            // the agent does not look for @Limit in these packages: an annotation there would never take effect
            String library = LibraryPackages.prefixOf(declared.className().replace('.', '/'));
            for (Map.Entry<String[], Map<String, Object>> method : declared.woven().entrySet()) {
                if (library != null) {
                    err.println(declared.className() + "#" + method.getKey()[0] + ": @Limit is not read in the"
                            + " classes of a library package (" + library.replace('/', '.') + "); limit the method"
                            + " with a method: rule");
                    problems++;
                    continue;
                }
                method(declared.className(), method.getKey()[0], method.getValue());
            }
        }

        private void method(String className, String methodName, Map<String, Object> values) {
            methods++;
            String where = className + "#" + methodName;
            if (!values.containsKey("limit")) {
                err.println(where + ": bad @Limit: limit: missing");
                problems++;
                return;
            }
            AnnotationRule compiled = AnnotationRule.compile(className, methodName, values, SystemClock.INSTANCE);
            if (compiled.rule() == null) {
                for (String problem : compiled.problems()) {
                    err.println(where + ": bad @Limit: " + problem);
                }
                problems++;
                return;
            }
            String id = compiled.id();
            String before = valuesById.putIfAbsent(id, compiled.values());
            if (before != null && !before.equals(compiled.values())) {
                err.println(where + ": bad @Limit: id: '" + id + "' is declared with other values by "
                        + firstById.get(id));
                problems++;
                return;
            }
            firstById.putIfAbsent(id, where);
            String override = rules.rule(id) == null ? "" : "; overridden by " + fileName + ":" + rules.line(id);
            out.println(where + ": " + compiled.rule() + override);
        }
    }
}
