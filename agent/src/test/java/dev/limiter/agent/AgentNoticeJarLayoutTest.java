package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the packaged {@code limiter.jar} against the repository's {@code NOTICE} (runs after {@code package},
 * bound to {@code integration-test} like the other jar-layout tests): every third-party package the jar carries
 * is named in NOTICE, NOTICE names nothing the jar does not carry, its versions are the ones the build shades,
 * and the jar carries limiter's LICENSE, NOTICE and licence texts under {@code META-INF/}.
 */
class AgentNoticeJarLayoutTest {

    private static final String SHADED = "dev.limiter.shaded";
    /** limiter's own packages in the jar: everything else must be third-party code named in NOTICE. */
    private static final List<String> OURS = List.of("dev.limiter.agent", "dev.limiter.api", "dev.limiter.bootstrap",
            "dev.limiter.core", "dev.limiter.rules", "dev.limiter.redis");
    /** The only entries at the jar's META-INF/ besides META-INF/licenses/ (the last: the bridge's class list). */
    private static final Set<String> META_INF = Set.of("META-INF/MANIFEST.MF", "META-INF/LICENSE", "META-INF/NOTICE",
            "META-INF/limiter-boot-classes");
    private static final Pattern ARTIFACT = Pattern.compile("(?m)^  Artifact: +(\\S+):(\\S+):(\\S+)$");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^  Package: +(\\S+)$");
    private static final Pattern LICENCE_FILE = Pattern.compile("licenses/([A-Za-z0-9._-]+\\.txt)");

    private record Component(String title, List<String[]> artifacts, List<String> packages) {
    }

    private static Path repository;
    private static String notice;
    private static List<Component> components;
    /** Every file entry of limiter.jar. */
    private static List<String> entries;

    @BeforeAll
    static void read() throws IOException {
        repository = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
        notice = Files.readString(repository.resolve("NOTICE"));
        components = new ArrayList<>();
        for (String block : notice.split("(?m)^-{20,}$")) {
            Matcher packages = PACKAGE.matcher(block);
            List<String> names = new ArrayList<>();
            while (packages.find()) {
                names.add(packages.group(1));
            }
            Matcher artifacts = ARTIFACT.matcher(block);
            List<String[]> coordinates = new ArrayList<>();
            while (artifacts.find()) {
                coordinates.add(new String[] {artifacts.group(1), artifacts.group(2), artifacts.group(3)});
            }
            if (!names.isEmpty() || !coordinates.isEmpty()) {
                components.add(new Component(block.strip().lines().findFirst().orElse(""), coordinates, names));
            }
        }
        try (JarFile jar = jar()) {
            entries = Collections.list(jar.entries()).stream().filter(e -> !e.isDirectory()).map(JarEntry::getName)
                    .toList();
        }
    }

    private static String text(JarFile jar, String entry) throws IOException {
        JarEntry found = jar.getJarEntry(entry);
        assertThat(found).as(entry + " in limiter.jar").isNotNull();
        try (InputStream in = jar.getInputStream(found)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static JarFile jar() throws IOException {
        return new JarFile(new File(System.getProperty("limiter.agent.jar", "target/limiter.jar")));
    }

    /** The package (dotted) of an entry, with the {@code inst/} hiding undone. */
    private static String packageOf(String entry) {
        String name = entry.startsWith("inst/") ? entry.substring("inst/".length()) : entry;
        int slash = name.lastIndexOf('/');
        return slash < 0 ? "" : name.substring(0, slash).replace('/', '.');
    }

    private static boolean within(String pkg, String prefix) {
        return pkg.equals(prefix) || pkg.startsWith(prefix + ".");
    }

    @Test
    void noticeListsComponentsWithAnArtifactAndAShadedPackageEach() {
        assertThat(components).hasSizeGreaterThanOrEqualTo(5).allSatisfy(c -> {
            assertThat(c.artifacts()).as(c.title()).isNotEmpty();
            assertThat(c.packages()).as(c.title()).isNotEmpty()
                    .allSatisfy(p -> assertThat(p).as(c.title()).startsWith(SHADED + "."));
        });
    }

    @Test
    void everyThirdPartyPackageInTheJarIsNamedInNotice() {
        List<String> named = components.stream().flatMap(c -> c.packages().stream()).toList();
        Set<String> unnamed = new TreeSet<>();
        for (String entry : entries) {
            String pkg = packageOf(entry);
            if (META_INF.contains(entry) || entry.startsWith("META-INF/licenses/")) {
                continue;
            }
            boolean ours = OURS.stream().anyMatch(p -> within(pkg, p));
            boolean listed = named.stream().filter(p -> within(pkg, p)).count() == 1;
            if (!ours && !listed) {
                unnamed.add(pkg.isEmpty() ? entry : pkg);
            }
        }
        assertThat(unnamed).as("packages in limiter.jar that are neither limiter's nor named once in NOTICE")
                .isEmpty();
    }

    @Test
    void noticeNamesNothingTheJarDoesNotCarry() {
        for (Component component : components) {
            for (String pkg : component.packages()) {
                assertThat(entries).as("%s: %s in limiter.jar", component.title(), pkg)
                        .anyMatch(e -> e.endsWith(".classdata") && within(packageOf(e), pkg));
            }
        }
    }

    /** The versions in NOTICE are those the build shades: the dependencies' own pom.properties say so. */
    @Test
    void noticeVersionsAreTheShadedOnes() throws IOException {
        for (Component component : components) {
            for (String[] artifact : component.artifacts()) {
                String resource = "META-INF/maven/" + artifact[0] + "/" + artifact[1] + "/pom.properties";
                Properties pom = new Properties();
                try (InputStream in = AgentNoticeJarLayoutTest.class.getClassLoader().getResourceAsStream(resource)) {
                    assertThat(in).as("%s on the agent's class path", String.join(":", artifact)).isNotNull();
                    pom.load(in);
                }
                assertThat(pom.getProperty("version")).as(String.join(":", artifact)).isEqualTo(artifact[2]);
            }
        }
    }

    @Test
    void theJarCarriesLimitersLicenceNoticeAndTheLicenceTextsNoticeNames() throws IOException {
        try (JarFile jar = jar()) {
            assertThat(text(jar, "META-INF/LICENSE")).isEqualTo(Files.readString(repository.resolve("LICENSE")));
            assertThat(text(jar, "META-INF/NOTICE")).isEqualTo(notice);
            assertThat(Files.readString(repository.resolve("LICENSE"))).contains("Apache License",
                    "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS");

            Set<String> referenced = new TreeSet<>();
            Matcher licence = LICENCE_FILE.matcher(notice);
            while (licence.find()) {
                referenced.add(licence.group(1));
            }
            Set<String> inRepository = new TreeSet<>();
            try (Stream<Path> files = Files.list(repository.resolve("licenses"))) {
                files.forEach(f -> inRepository.add(f.getFileName().toString()));
            }
            assertThat(inRepository).as("licenses/ holds exactly the texts NOTICE names").isEqualTo(referenced);
            Set<String> inJar = new TreeSet<>();
            for (String entry : entries) {
                if (entry.startsWith("META-INF/licenses/")) {
                    inJar.add(entry.substring("META-INF/licenses/".length()));
                }
            }
            assertThat(inJar).isEqualTo(referenced);
            for (String name : referenced) {
                assertThat(text(jar, "META-INF/licenses/" + name)).as(name)
                        .isEqualTo(Files.readString(repository.resolve("licenses").resolve(name)));
            }
        }
        // the dependencies' own licence files are replaced by ours, not carried beside them
        assertThat(entries).noneMatch(e -> e.matches("(inst/)?META-INF/(LICENSE|NOTICE).+")
                || e.startsWith("inst/META-INF/licenses/"));
    }
}
