package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.SimpleRemapper;
import org.junit.jupiter.api.Test;

/**
 * The classes of known libraries are not looked at for {@code @Limit} ({@link LibraryPackages}): the same
 * annotated class file is woven in the application's package and passed over in a library's, whether or not its
 * loader sees a servlet API (two different scans find the annotation).
 */
class LibraryPackagesTest {

    private static final String ANNOTATED = "annotest/Reports";
    private static final String IN_LIBRARY = "org/springframework/limitertest/Reports";

    @Test
    void knownLibrariesAreListedByWholePackageAndOthersAreNot() {
        assertThat(LibraryPackages.contains("org/springframework/web/server/adapter/HttpWebHandlerAdapter")).isTrue();
        assertThat(LibraryPackages.contains("io/netty/channel/Channel")).isTrue();
        assertThat(LibraryPackages.contains("reactor/core/publisher/Mono")).isTrue();
        assertThat(LibraryPackages.prefixOf("com/fasterxml/jackson/databind/ObjectMapper")).isEqualTo("com/fasterxml/");
        assertThat(LibraryPackages.contains("com/acme/orders/OrderService")).isFalse();
        assertThat(LibraryPackages.contains("org/springframeworkx/Service")).isFalse(); // whole segments only
        assertThat(LibraryPackages.contains("dev/limiter/it/app/webflux/WebfluxApp")).isFalse();
        assertThat(LibraryPackages.contains("Main")).isFalse();
        assertThat(LibraryPackages.contains("")).isFalse();
        assertThat(LibraryPackages.contains("\u00e9t\u00e9/Summer")).isFalse(); // beyond ASCII
    }

    @Test
    void everyPrefixIsAWholePackageAndListedOnce() {
        Set<String> seen = new HashSet<>();
        for (String prefix : LibraryPackages.PREFIXES) {
            assertThat(prefix).endsWith("/").doesNotStartWith("/").doesNotContain(".");
            assertThat(seen.add(prefix)).as(prefix).isTrue();
            assertThat(LibraryPackages.prefixOf(prefix + "Type")).isEqualTo(prefix);
        }
    }

    /** docs/annotations.md lists the packages for users: exactly these, so the list cannot drift from the code. */
    @Test
    void theUserDocsListExactlyThesePackages() throws Exception {
        String doc = Files.readString(Path.of("../docs/annotations.md"));
        String section = doc.substring(doc.indexOf("## Where annotations are read"));
        section = section.substring(0, section.indexOf("A method in one of them"));
        List<String> documented = new ArrayList<>();
        Matcher name = Pattern.compile("`([a-z][a-z0-9.]*)`").matcher(section);
        while (name.find()) {
            documented.add(name.group(1).replace('.', '/') + "/");
        }
        assertThat(documented).containsExactlyInAnyOrderElementsOf(Arrays.asList(LibraryPackages.PREFIXES));
    }

    @Test
    void anAnnotatedClassIsWovenInTheApplicationsPackageAndNotInALibrarys() throws Exception {
        byte[] own = ClassFiles.of(ANNOTATED);
        byte[] library = renamed(own, ANNOTATED, IN_LIBRARY);
        // a loader that sees no servlet or JAX-RS API (the annotation's own scan) and the test's, which sees the
        // servlet APIs (the scan that looks for entry points too)
        try (URLClassLoader noApis = new URLClassLoader("no-apis", new URL[0], ClassLoader.getPlatformClassLoader())) {
            for (ClassLoader loader : new ClassLoader[] {noApis, getClass().getClassLoader()}) {
                List<String> woven = new ArrayList<>();
                LimiterTransformer transformer = LimiterTransformer.create(
                        new ThrottledLog("dev.limiter.test.library", 0), woven::add);

                assertThat(transformer.transform(loader, ANNOTATED, null, null, own)).as(loader.getName())
                        .isNotNull();
                assertThat(transformer.transform(loader, IN_LIBRARY, null, null, library)).as(loader.getName())
                        .isNull();
                assertThat(woven).containsExactly(ANNOTATED.replace('/', '.'));
            }
        }
    }

    private static byte[] renamed(byte[] classFile, String from, String to) {
        ClassWriter writer = new ClassWriter(0);
        new ClassReader(classFile).accept(new ClassRemapper(writer, new SimpleRemapper(Opcodes.ASM9, Map.of(from, to))),
                0);
        return writer.toByteArray();
    }
}
