import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;

/**
 * Build step (run by exec-maven-plugin as a single-file Java program): turns the shaded jar into limiter.jar.
 *
 * <p>Only the bootstrap API ({@code dev/limiter/api}, {@code dev/limiter/bootstrap}), the premain class and the
 * manifest/licences stay at the jar root, where the system and bootstrap loaders look. Every other class moves
 * to {@code inst/<name>.classdata} and every other resource to {@code inst/<name>}, where only
 * {@code AgentClassLoader} looks. The step fails the build if anything else would be left at the root.
 *
 * <p>The classes every start loads (ours, SnakeYAML's parser, ASM) are stored uncompressed: the
 * agent reads some 270 of them while the application starts, and inflating them cost about a third of that
 * reading (Jetty 9.4: 31 -> 18 ms). The rest of Byte Buddy (only a class-file-version helper loads) and the
 * Redis client stay compressed: they are most of the jar.
 */
public final class RelayoutJar {

    private static final String PREFIX = "inst/";
    private static final String SUFFIX = ".classdata";

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        List<String> root = new ArrayList<>();
        try (JarFile source = new JarFile(in.toFile());
             JarOutputStream target = new JarOutputStream(Files.newOutputStream(tmp))) {
            copy(source, source.getJarEntry("META-INF/MANIFEST.MF"), "META-INF/MANIFEST.MF", target);
            for (Enumeration<JarEntry> e = source.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                String name = entry.getName();
                if (entry.isDirectory() || name.equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                if (staysAtRoot(name)) {
                    root.add(name);
                    copy(source, entry, name, target);
                } else if (name.endsWith(".class")) {
                    copy(source, entry, PREFIX + name.substring(0, name.length() - 6) + SUFFIX, target);
                } else {
                    copy(source, entry, PREFIX + name, target);
                }
            }
        }
        for (String name : root) {
            if (!allowedAtRoot(name)) {
                Files.deleteIfExists(tmp);
                System.err.println("RelayoutJar: unexpected class at the jar root: " + name);
                System.exit(1);
            }
        }
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("RelayoutJar: wrote " + out + " (" + root.size() + " entries at the root)");
    }

    /** Loaded by every start (see the class comment). */
    private static boolean storedUncompressed(String name) {
        return name.startsWith("dev/limiter/") && !name.startsWith("dev/limiter/shaded/")
                || name.startsWith("dev/limiter/shaded/snakeyaml/")
                || name.startsWith("dev/limiter/shaded/bytebuddy/jar/asm/");
    }

    private static boolean staysAtRoot(String name) {
        return name.startsWith("dev/limiter/api/")
                || name.startsWith("dev/limiter/bootstrap/")
                || name.equals("dev/limiter/agent/LimiterAgent.class")
                || name.startsWith("META-INF/LICENSE")
                || name.startsWith("META-INF/NOTICE");
    }

    private static boolean allowedAtRoot(String name) {
        return !name.endsWith(".class") || staysAtRoot(name);
    }

    private static void copy(JarFile source, JarEntry entry, String name, JarOutputStream target) throws IOException {
        byte[] data;
        try (InputStream in = source.getInputStream(entry)) {
            data = in.readAllBytes();
        }
        ZipEntry copy = new ZipEntry(name);
        copy.setTime(entry.getTime());
        if (storedUncompressed(entry.getName())) {
            CRC32 crc = new CRC32();
            crc.update(data);
            copy.setMethod(ZipEntry.STORED);
            copy.setSize(data.length);
            copy.setCompressedSize(data.length);
            copy.setCrc(crc.getValue());
        }
        target.putNextEntry(copy);
        target.write(data);
        target.closeEntry();
    }
}
