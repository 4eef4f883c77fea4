package dev.limiter.agent.architecture;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which of our packages the compiled classes of a module refer to, read from their class files' constant pools
 * (every class reference and type descriptor names the class as {@code dev/limiter/...}), and the cycles in
 * that graph.
 */
final class PackageGraph {

    private static final Pattern OUR_TYPE = Pattern.compile("dev/limiter/[A-Za-z0-9_/$]+");

    /** Package -> the other packages of ours its classes refer to. */
    final Map<String, Set<String>> edges = new TreeMap<>();
    /** Package -> the simple names of its classes (nested classes included). */
    final Map<String, Set<String>> classes = new TreeMap<>();

    /** The graph of the classes in the jar or directory {@code type} was loaded from. */
    static PackageGraph ofModuleOf(Class<?> type) {
        try {
            Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
            PackageGraph graph = new PackageGraph();
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.walk(location)) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        String name = location.relativize(file).toString().replace('\\', '/');
                        if (name.endsWith(".class")) {
                            graph.add(name, Files.readAllBytes(file));
                        }
                    }
                }
            } else {
                try (JarFile jar = new JarFile(location.toFile())) {
                    for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                        JarEntry entry = entries.nextElement();
                        if (entry.getName().endsWith(".class") && entry.getName().startsWith("dev/limiter/")) {
                            try (InputStream in = jar.getInputStream(entry)) {
                                graph.add(entry.getName(), in.readAllBytes());
                            }
                        }
                    }
                }
            }
            return graph;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private void add(String classFileName, byte[] classFile) {
        if (!classFileName.startsWith("dev/limiter/") || classFileName.endsWith("module-info.class")) {
            return;
        }
        String own = packageOf(classFileName);
        String simple = classFileName.substring(own.length() + 1, classFileName.length() - ".class".length());
        classes.computeIfAbsent(own.replace('/', '.'), p -> new TreeSet<>()).add(simple);
        Set<String> targets = edges.computeIfAbsent(own.replace('/', '.'), p -> new TreeSet<>());
        for (String text : utf8Constants(classFile)) {
            Matcher m = OUR_TYPE.matcher(text);
            while (m.find()) {
                String target = packageOf(m.group());
                if (!target.equals(own)) {
                    targets.add(target.replace('/', '.'));
                }
            }
        }
    }

    private static String packageOf(String internalName) {
        return internalName.substring(0, internalName.lastIndexOf('/'));
    }

    /** The strongly connected components of more than one package: each is a cycle. */
    List<Set<String>> cycles() {
        List<Set<String>> cycles = new ArrayList<>();
        for (String start : edges.keySet()) {
            Set<String> component = new TreeSet<>();
            for (String other : edges.keySet()) {
                if (!other.equals(start) && reaches(start, other) && reaches(other, start)) {
                    component.add(other);
                }
            }
            if (!component.isEmpty()) {
                component.add(start);
                if (!cycles.contains(component)) {
                    cycles.add(component);
                }
            }
        }
        return cycles;
    }

    /** True if {@code from} depends on {@code to}, directly or through other packages. */
    boolean reaches(String from, String to) {
        Set<String> seen = new TreeSet<>();
        List<String> work = new ArrayList<>(List.of(from));
        while (!work.isEmpty()) {
            String current = work.remove(work.size() - 1);
            for (String next : edges.getOrDefault(current, Set.of())) {
                if (next.equals(to)) {
                    return true;
                }
                if (seen.add(next)) {
                    work.add(next);
                }
            }
        }
        return false;
    }

    /** The UTF-8 entries of a class file's constant pool. */
    private static List<String> utf8Constants(byte[] bytes) {
        List<String> texts = new ArrayList<>();
        int count = u2(bytes, 8);
        int at = 10;
        for (int index = 1; index < count; index++) {
            int tag = bytes[at];
            switch (tag) {
                case 1 -> {
                    int length = u2(bytes, at + 1);
                    texts.add(new String(bytes, at + 3, length, StandardCharsets.UTF_8));
                    at += 3 + length;
                }
                case 7, 8, 16, 19, 20 -> at += 3;
                case 15 -> at += 4;
                case 3, 4, 9, 10, 11, 12, 17, 18 -> at += 5;
                case 5, 6 -> {
                    at += 9;
                    index++;
                }
                default -> throw new IllegalArgumentException("unknown constant pool tag " + tag);
            }
        }
        return texts;
    }

    private static int u2(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF;
    }
}
