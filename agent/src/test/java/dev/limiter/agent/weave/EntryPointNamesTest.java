package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import java.util.Arrays;
import jaxrstest.CatchAllMapper;
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

        void service() {
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
    void aClassFileItCannotReadPasses() {
        byte[] classFile = ClassFiles.of(FakeHttp.class);
        byte[] unknownTag = classFile.clone();
        unknownTag[10] = 99; // the first constant pool entry's tag
        assertThat(EntryPointNames.mayDeclare(unknownTag, WeaveTarget.SERVLETS)).isTrue();
        assertThat(EntryPointNames.mayDeclare(Arrays.copyOf(classFile, 200), WeaveTarget.SERVLETS)).isTrue();
        assertThat(EntryPointNames.mayDeclare(new byte[4], WeaveTarget.SERVLETS)).isTrue();
    }
}
