package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import jaxrstest.CatchAllMapper;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;
import weavingtest.JakartaHello;
import weavingtest.JakartaPassFilter;
import weavingtest.TrickyServlet;

/** The constant-pool look that spares most classes the super-type walk, on real class files. */
class EntryPointNamesTest {

    /** A class whose constant pool has long and double entries (two slots each) before the names we look for. */
    static final class WideConstants {
        long big = 1L << 40;
        double ratio = 0.123456789;

        public void service(jakarta.servlet.ServletRequest request, jakarta.servlet.ServletResponse response) {
        }
    }

    /** Declares a {@code service} of another kind and calls a filter's {@code doFilter}: no entry point of its own. */
    static final class CallsAFilter {
        void service(String job) {
        }

        void run(jakarta.servlet.Filter filter, jakarta.servlet.ServletRequest request,
                jakarta.servlet.ServletResponse response, jakarta.servlet.FilterChain chain) throws Exception {
            filter.doFilter(request, response, chain);
        }
    }

    /** Wide constants and no entry-point name. */
    static final class WideOnly {
        long big = 1L << 41;
        double ratio = 0.987654321;
    }

    @Test
    void classesThatDeclareAnEntryPointPass() {
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(HttpServlet.class), WeaveTarget.SERVLETS)).isTrue();
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(JakartaPassFilter.class), WeaveTarget.SERVLETS))
                .isTrue();
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(TrickyServlet.class), WeaveTarget.SERVLETS)).isTrue();
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(CatchAllMapper.class), WeaveTarget.MAPPERS)).isTrue();
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(WideConstants.class), WeaveTarget.SERVLETS)).isTrue();
    }

    @Test
    void classesWithoutTheNamesArePassedOver() {
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(JakartaHello.class), WeaveTarget.SERVLETS)).isFalse();
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(FakeHttp.class), WeaveTarget.SERVLETS)).isFalse();
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(WideOnly.class), WeaveTarget.SERVLETS)).isFalse();
        // a mapper's name matters only where mappers are visible, and the other way round
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(CatchAllMapper.class), WeaveTarget.SERVLETS)).isFalse();
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(HttpServlet.class), WeaveTarget.MAPPERS)).isFalse();
    }

    @Test
    void aClassThatOnlyCallsAnEntryPointOrDeclaresAnotherKindIsPassedOver() {
        assertThat(EntryPointNames.mayDeclare(ClassFiles.of(CallsAFilter.class), WeaveTarget.SERVLETS)).isFalse();
        // its constant pool has both the name and the servlet descriptor: only the method table tells
        assertThat(new String(ClassFiles.of(CallsAFilter.class), java.nio.charset.StandardCharsets.ISO_8859_1))
                .contains("doFilter").contains("(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;");
    }

    /**
     * Every class of real jars (both servlet APIs, JAX-RS, Jersey, Spring WebFlux, Apache HttpClient 5): the walk,
     * with its shortcuts on an entry's length and first byte, answers as a full read of the methods does.
     */
    @Test
    void everyClassOfRealJarsGetsTheAnswerOfAFullRead() throws IOException, URISyntaxException {
        int targets = 0;
        for (WeaveTarget target : WeaveTarget.ALL) {
            targets |= target.bit & ~WeaveTarget.EXACT_CLASSES;
        }
        int classes = 0;
        int declaring = 0;
        for (Class<?> inJar : List.of(HttpServlet.class, javax.servlet.http.HttpServlet.class,
                jakarta.ws.rs.ext.ExceptionMapper.class, org.glassfish.jersey.internal.Errors.class,
                org.springframework.web.reactive.DispatcherHandler.class,
                org.apache.hc.client5.http.impl.classic.CloseableHttpClient.class)) {
            for (byte[] classFile : classFiles(inJar)) {
                boolean declares = declaresByFullRead(classFile, targets);
                assertThat(EntryPointNames.mayDeclare(classFile, targets))
                        .as(new ClassReader(classFile).getClassName()).isEqualTo(declares);
                classes++;
                declaring += declares ? 1 : 0;
            }
        }
        assertThat(classes).isGreaterThan(1_000);
        assertThat(declaring).isGreaterThan(10);
    }

    /** Whether the class declares a method a target of {@code targets} weaves: name, then descriptor beginning. */
    private static boolean declaresByFullRead(byte[] classFile, int targets) {
        boolean[] found = {false};
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                for (WeaveTarget target : WeaveTarget.ALL) {
                    if ((target.bit & targets) != 0 && Arrays.asList(target.methods).contains(name)
                            && (target.descriptorStart.length() <= 2 || descriptor.startsWith(target.descriptorStart))) {
                        found[0] = true;
                    }
                }
                return null;
            }
        }, ClassReader.SKIP_CODE);
        return found[0];
    }

    private static List<byte[]> classFiles(Class<?> inJar) throws IOException, URISyntaxException {
        List<byte[]> files = new ArrayList<>();
        Path jar = Path.of(inJar.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                if (entry.getName().endsWith(".class") && !entry.getName().endsWith("module-info.class")) {
                    files.add(zip.getInputStream(entry).readAllBytes());
                }
            }
        }
        return files;
    }

    @Test
    void aClassFileItCannotReadPasses() {
        byte[] classFile = ClassFiles.of(FakeHttp.class);
        byte[] unknownTag = classFile.clone();
        unknownTag[10] = 99; // the first constant pool entry's tag
        assertThat(EntryPointNames.mayDeclare(unknownTag, WeaveTarget.SERVLETS)).isTrue();
        assertThat(EntryPointNames.mayDeclare(Arrays.copyOf(classFile, 200), WeaveTarget.SERVLETS)).isTrue();
        assertThat(EntryPointNames.mayDeclare(new byte[4], WeaveTarget.SERVLETS)).isTrue();
        // a method table cut short: the class passes, and the walk decides
        byte[] servlet = ClassFiles.of(WideConstants.class);
        assertThat(EntryPointNames.mayDeclare(Arrays.copyOf(servlet, servlet.length - 40), WeaveTarget.SERVLETS))
                .isTrue();
    }
}
