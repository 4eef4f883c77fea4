import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;

/**
 * Build step (run by exec-maven-plugin as a single-file Java program): turns the shaded jar into limiter.jar.
 *
 * <p>Arguments: the shaded jar, limiter.jar, the build's {@code project.build.outputTimestamp} (ISO 8601 or
 * seconds since the epoch) and the folder that holds limiter's {@code LICENSE}, {@code NOTICE} and
 * {@code licenses/}.
 *
 * <p>Only the bootstrap API ({@code dev/limiter/api}, {@code dev/limiter/bootstrap}), the premain class and the
 * manifest/licences stay at the jar root, where the system and bootstrap loaders look. Every other class moves
 * to {@code inst/<name>.classdata} and every other resource to {@code inst/<name>}, where only
 * {@code AgentClassLoader} looks. The step fails the build if anything else would be left at the root.
 *
 * <p>The licences and notices the dependencies bring ({@code META-INF/LICENSE*}, {@code META-INF/NOTICE*},
 * {@code META-INF/licenses/}) are replaced by limiter's own {@code LICENSE}, {@code NOTICE} (which names every
 * third-party component the jar carries, and keeps their notices) and {@code licenses/}, under
 * {@code META-INF/}.
 *
 * <p>Reproducible: the manifest first, then every entry sorted by name, each stamped with the build's output
 * timestamp (as a zone-free MS-DOS date and time, so the time zone of the build machine does not matter), no
 * directory entries and nothing else from the build machine.
 *
 * <p>The classes every start loads (ours and ASM) are stored uncompressed: the
 * agent reads some 270 of them while the application starts, and inflating them cost about a third of that
 * reading (Jetty 9.4: 31 -> 18 ms). The rest of Byte Buddy (only a class-file-version helper loads) and the
 * Redis client stay compressed: they are most of the jar.
 */
public final class RelayoutJar {

    private static final String PREFIX = "inst/";
    private static final String SUFFIX = ".classdata";
    private static final String MANIFEST = "META-INF/MANIFEST.MF";
    /** The bridge classes premain defines in the boot loader, in an order it can define them one by one. */
    private static final String BOOT_CLASSES = "META-INF/limiter-boot-classes";

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("RelayoutJar: usage: RelayoutJar SHADED_JAR OUT_JAR OUTPUT_TIMESTAMP LEGAL_DIR");
            System.exit(2);
        }
        Path in = Path.of(args[0]);
        Path out = Path.of(args[1]);
        LocalDateTime time = entryTime(args[2]);
        Path legal = Path.of(args[3]);
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");

        // target name -> content, sorted by name
        Map<String, byte[]> entries = new TreeMap<>();
        List<String> root = new ArrayList<>();
        byte[] manifest;
        try (JarFile source = new JarFile(in.toFile())) {
            manifest = read(source, source.getJarEntry(MANIFEST));
            for (Enumeration<JarEntry> e = source.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                String name = entry.getName();
                if (entry.isDirectory() || name.equals(MANIFEST) || isThirdPartyLegal(name)) {
                    continue;
                }
                String target;
                if (staysAtRoot(name)) {
                    root.add(name);
                    target = name;
                } else if (name.endsWith(".class")) {
                    target = PREFIX + name.substring(0, name.length() - 6) + SUFFIX;
                } else {
                    target = PREFIX + name;
                }
                put(entries, target, read(source, entry));
            }
        }
        for (String name : root) {
            if (!allowedAtRoot(name)) {
                System.err.println("RelayoutJar: unexpected class at the jar root: " + name);
                System.exit(1);
            }
        }
        put(entries, BOOT_CLASSES, String.join("\n", definitionOrder(entries)).getBytes(StandardCharsets.UTF_8));
        put(entries, "META-INF/LICENSE", Files.readAllBytes(legal.resolve("LICENSE")));
        put(entries, "META-INF/NOTICE", Files.readAllBytes(legal.resolve("NOTICE")));
        try (Stream<Path> licences = Files.list(legal.resolve("licenses"))) {
            for (Path licence : licences.sorted().toList()) {
                put(entries, "META-INF/licenses/" + licence.getFileName(), Files.readAllBytes(licence));
            }
        }

        try (JarOutputStream target = new JarOutputStream(Files.newOutputStream(tmp))) {
            write(target, MANIFEST, manifest, time);
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                write(target, entry.getKey(), entry.getValue(), time);
            }
        } catch (IOException | RuntimeException failure) {
            Files.deleteIfExists(tmp);
            throw failure;
        }
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("RelayoutJar: wrote " + out + " (" + root.size() + " entries at the root)");
    }

    /**
     * The binary names of the bridge classes ({@code dev/limiter/api/}, {@code dev/limiter/bootstrap/}) in an order
     * the boot loader can define them one by one, each after its super types (premain's {@code BootDefiner} reads
     * this list instead of walking the jar's 1,500 entries, and defines without a failed attempt). Found by
     * defining them in a throw-away loader, which defines a class's super types before it.
     */
    static List<String> definitionOrder(Map<String, byte[]> entries) throws IOException {
        Map<String, byte[]> bridge = new TreeMap<>();
        for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
            String name = entry.getKey();
            if (name.endsWith(".class") && (name.startsWith("dev/limiter/api/")
                    || name.startsWith("dev/limiter/bootstrap/"))) {
                bridge.put(name.substring(0, name.length() - 6).replace('/', '.'), entry.getValue());
            }
        }
        List<String> order = new ArrayList<>();
        ClassLoader recorder = new ClassLoader(null) { // the boot loader's view, as BootDefiner's classes have
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] bytes = bridge.get(name);
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                Class<?> defined = defineClass(name, bytes, 0, bytes.length);
                order.add(name);
                return defined;
            }
        };
        try {
            for (String name : bridge.keySet()) {
                recorder.loadClass(name);
            }
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IOException("the bridge classes cannot be defined in the boot loader alone", e);
        }
        return order;
    }

    /** {@code project.build.outputTimestamp}: ISO 8601 with an offset, or seconds since the epoch. */
    static LocalDateTime entryTime(String outputTimestamp) {
        Instant instant = outputTimestamp.chars().allMatch(Character::isDigit)
                ? Instant.ofEpochSecond(Long.parseLong(outputTimestamp))
                : OffsetDateTime.parse(outputTimestamp).toInstant();
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static void put(Map<String, byte[]> entries, String name, byte[] data) {
        if (entries.put(name, data) != null) {
            System.err.println("RelayoutJar: two entries would be named " + name);
            System.exit(1);
        }
    }

    /** The dependencies' own licence and notice files: limiter's NOTICE and licenses/ carry them instead. */
    private static boolean isThirdPartyLegal(String name) {
        return name.startsWith("META-INF/LICENSE") || name.startsWith("META-INF/NOTICE")
                || name.startsWith("META-INF/licenses/");
    }

    /** Loaded by every start (see the class comment). */
    private static boolean storedUncompressed(String target) {
        String name = target.startsWith(PREFIX) ? target.substring(PREFIX.length()) : target;
        return name.startsWith("dev/limiter/") && !name.startsWith("dev/limiter/shaded/")
                || name.startsWith("dev/limiter/shaded/bytebuddy/jar/asm/");
    }

    private static boolean staysAtRoot(String name) {
        return name.startsWith("dev/limiter/api/")
                || name.startsWith("dev/limiter/bootstrap/")
                || name.startsWith("dev/limiter/agent/LimiterAgent.class")
                || name.startsWith("dev/limiter/agent/LimiterAgent$");
    }

    private static boolean allowedAtRoot(String name) {
        return !name.endsWith(".class") || staysAtRoot(name);
    }

    private static byte[] read(JarFile source, JarEntry entry) throws IOException {
        try (InputStream in = source.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }

    private static void write(JarOutputStream target, String name, byte[] data, LocalDateTime time)
            throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setTimeLocal(time);
        if (storedUncompressed(name)) {
            CRC32 crc = new CRC32();
            crc.update(data);
            entry.setMethod(ZipEntry.STORED);
            entry.setSize(data.length);
            entry.setCompressedSize(data.length);
            entry.setCrc(crc.getValue());
        }
        target.putNextEntry(entry);
        target.write(data);
        target.closeEntry();
    }
}
