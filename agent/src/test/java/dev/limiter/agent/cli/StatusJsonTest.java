package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusJsonTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> array(Object value) {
        return (List<Object>) value;
    }

    @Test
    void theDocumentParsesBackToTheReading() {
        String json = StatusJson.of(StatusSamples.sample());
        assertThat(json).doesNotContain("\n");
        Map<String, Object> doc = object(TestJson.parse(json));
        assertThat(doc).containsEntry("pid", 4242L).containsEntry("version", "1.2.3").containsEntry("enabled", true)
                .containsEntry("rulesFile", "/etc/limiter/rules.yml").containsEntry("ruleCount", 3L)
                .containsEntry("wovenTypes", 17L).containsEntry("internalErrors", 0L)
                .containsEntry("reweaving", "pending since 2026-12-03T18:40:00Z");
        assertThat(object(doc.get("reloads"))).containsEntry("ok", 2L).containsEntry("failed", 1L)
                .containsEntry("lastTime", "2026-12-03T18:40:00Z").containsEntry("lastFailed", true)
                .containsEntry("lastError", "rules.yml:7:12: limit must be positive\nrules.yml:9:3: unknown key 'foo'");
        assertThat(object(doc.get("store"))).containsEntry("type", "local").containsEntry("state", "up");
        List<Object> rules = array(doc.get("rules"));
        assertThat(rules).hasSize(3);
        Map<String, Object> orders = object(rules.get(0));
        assertThat(orders).containsEntry("id", "orders").containsEntry("match", "http GET /api/orders/**")
                .containsEntry("key", "ip").containsEntry("strategy", "token-bucket").containsEntry("limit", 10L)
                .containsEntry("windowMillis", 1000L).containsEntry("capacity", 20L).containsEntry("mode", "enforce")
                .containsEntry("fileMode", "enforce").containsEntry("allowed", 120L).containsEntry("rejected", 7L)
                .containsEntry("wouldReject", 0L).containsEntry("errors", 0L).containsEntry("activeKeys", 3L)
                .containsEntry("keysRefused", 0L).containsEntry("noClassLoaded", false);
        assertThat(array(orders.get("topRejectedKeys"))).containsExactly(
                Map.of("key", "127.0.0.1", "count", 5L, "error", 0L),
                Map.of("key", StatusSamples.HOSTILE_KEY, "count", 2L, "error", 1L));
        assertThat(object(rules.get(1))).containsEntry("mode", "dry-run").containsEntry("wouldReject", 12L);
        assertThat(object(rules.get(2))).containsEntry("id", "uploads").containsEntry("strategy", "concurrency");
    }

    @Test
    void hostileKeysStayInsideTheirStringAndSurviveTheRoundTrip() {
        String json = StatusJson.of(StatusSamples.sample());
        assertThat(json).contains("a\\\"b\\\\c\\r\\nd\\u001b[2Je\\u2028f\u202eg\\ud800h\ud83d\ude00");
        for (char c : json.toCharArray()) {
            assertThat(c >= 0x20 && c != 0x7f).as("raw U+%04x in the document", (int) c).isTrue();
        }
    }

    @Test
    void unknownValuesAreNull() {
        RuleStatus old = new RuleStatus("old", "", "", "", -1, -1, -1, "", "", -1, -1, -1, -1, -1, -1, false, List.of());
        LimiterStatus status = new LimiterStatus(1, "", "", false, 1, -1, -1, "", "", -1, -1, "", "", List.of(old), null);
        Map<String, Object> doc = object(TestJson.parse(StatusJson.of(status)));
        assertThat(doc.get("store")).isNull();
        assertThat(object(doc.get("reloads"))).containsEntry("ok", null).containsEntry("lastTime", null)
                .containsEntry("lastFailed", false).containsEntry("lastError", null);
        assertThat(object(array(doc.get("rules")).get(0))).containsEntry("allowed", null).containsEntry("limit", null);
    }

    @Test
    void theWriterPlacesCommasInNestedContainers() {
        String json = new JsonWriter().beginObject().name("a").beginArray().value(1).beginObject().endObject()
                .beginArray().endArray().nullValue().endArray().name("b").value("x").endObject().toString();
        assertThat(json).isEqualTo("{\"a\":[1,{},[],null],\"b\":\"x\"}");
        assertThat(TestJson.parse(json)).isInstanceOf(Map.class);
    }

    @Test
    void everyCharacterBelowTheSurrogatesRoundTrips() {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0xd800; c++) {
            all.append(c);
        }
        String json = new JsonWriter().value(all.toString()).toString();
        assertThat(TestJson.parse(json)).isEqualTo(all.toString());
    }
}
