package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.method.LimitDeclarations;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The constant-pool check passes exactly the classes that carry {@code @Limit}, and the class-file reader finds
 * the annotations and their written values (by string name: loading the annotest classes here would not matter,
 * but the reader never needs them loaded).
 */
class AnnotationPresenceTest {

    @Test
    void onlyClassesWithTheDescriptorInTheirPoolPass() {
        assertThat(AnnotationPresence.mayDeclare(ClassFiles.of("annotest/Mailer"))).isTrue();
        assertThat(AnnotationPresence.mayDeclare(ClassFiles.of("annotest/Reports"))).isTrue();
        assertThat(AnnotationPresence.mayDeclare(ClassFiles.of("annotest/QuotaExceeded"))).isFalse();
        assertThat(AnnotationPresence.mayDeclare(ClassFiles.of("methodtest/Mailer"))).isFalse();
        assertThat(AnnotationPresence.mayDeclare(ClassFiles.of(String.class))).isFalse();
        assertThat(AnnotationPresence.mayDeclare(new byte[4])).isFalse();
    }

    @Test
    void theEntryPointWalkAnswersBothQuestionsInOnePass() {
        int both = EntryPointNames.ENTRY_POINT | EntryPointNames.ANNOTATED;
        assertThat(EntryPointNames.scan(ClassFiles.of("annotest/AnnotatedServlet"), WeaveTarget.SERVLETS))
                .isEqualTo(both);
        assertThat(EntryPointNames.scan(ClassFiles.of("annotest/Mailer"), WeaveTarget.SERVLETS))
                .isEqualTo(EntryPointNames.ANNOTATED);
        assertThat(EntryPointNames.scan(ClassFiles.of("jakarta/servlet/http/HttpServlet"), WeaveTarget.SERVLETS))
                .isEqualTo(EntryPointNames.ENTRY_POINT);
        // a servlet that only overrides doGet declares no entry point (HttpServlet's service is woven)
        assertThat(EntryPointNames.scan(ClassFiles.of("weavingtest/JakartaHello"), WeaveTarget.SERVLETS)).isZero();
        assertThat(EntryPointNames.scan(ClassFiles.of("annotest/QuotaExceeded"), WeaveTarget.SERVLETS)).isZero();
        byte[] unknownTag = ClassFiles.of("annotest/QuotaExceeded");
        unknownTag[10] = 99;
        assertThat(EntryPointNames.scan(unknownTag, WeaveTarget.SERVLETS)).isEqualTo(both);
    }

    @Test
    void aTruncatedOrUnknownPoolPassesSoTheFullReadDecides() {
        byte[] mailer = ClassFiles.of("annotest/Mailer");
        assertThat(AnnotationPresence.mayDeclare(Arrays.copyOf(mailer, 20))).isTrue();
        byte[] unknownTag = mailer.clone();
        unknownTag[10] = 99;
        assertThat(AnnotationPresence.mayDeclare(unknownTag)).isTrue();
    }

    @Test
    void theReaderFindsMethodAndClassAnnotationsWithTheirWrittenValuesOnly() {
        LimitDeclarations mailer = LimitDeclarations.read(ClassFiles.of("annotest/Mailer"));
        assertThat(mailer.className()).isEqualTo("annotest.Mailer");
        assertThat(woven(mailer)).containsExactly(Map.entry("send", Map.of("id", "anno-send", "limit", 2L,
                "window", "1h", "key", "arg:0")));

        LimitDeclarations reports = LimitDeclarations.read(ClassFiles.of("annotest/Reports"));
        Map<String, Map<String, Object>> methods = woven(reports);
        assertThat(methods.keySet()).containsExactly("daily", "weekly", "export");
        assertThat(methods.get("daily")).isEqualTo(Map.of("limit", 3L, "window", "1h"));
        assertThat(methods.get("export")).containsEntry("id", "anno-export").containsEntry("limit", 1L);

        LimitDeclarations charged = LimitDeclarations.read(ClassFiles.of("annotest/Charged"));
        assertThat(woven(charged).get("charge")).containsEntry("throwClass", "annotest.QuotaExceeded")
                .containsEntry("capacity", 1L).containsEntry("strategy", "token-bucket");

        assertThat(LimitDeclarations.read(ClassFiles.of("annotest/QuotaExceeded"))).isNull();
    }

    private static Map<String, Map<String, Object>> woven(LimitDeclarations declared) {
        Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
        for (Map.Entry<String[], Map<String, Object>> entry : declared.woven().entrySet()) {
            byName.put(entry.getKey()[0], entry.getValue());
        }
        return byName;
    }
}
