package dev.limiter.agent.cli;

/**
 * {@code limiter status --json}: the same reading as the screen, as one JSON document for scripts (docs/cli.md
 * shows it). Names are the MBean attributes' in camel case; a count the agent did not report is {@code null};
 * {@code store} is {@code null} without a store MBean.
 */
final class StatusJson {

    private StatusJson() {
    }

    static String of(LimiterStatus status) {
        JsonWriter json = new JsonWriter().beginObject();
        json.name("pid").value(status.pid());
        json.name("version").value(status.version());
        json.name("enabled").value(status.enabled());
        json.name("rulesFile").value(status.rulesFile());
        json.name("ruleCount").value(status.ruleCount());
        json.name("reloads").beginObject()
                .name("ok").count(status.reloads())
                .name("failed").count(status.failedReloads())
                .name("lastTime").value(status.lastReloadTime().isEmpty() ? null : status.lastReloadTime())
                .name("lastFailed").value(status.lastReloadFailed())
                .name("lastError").value(status.lastReloadFailed() ? status.lastReloadError() : null)
                .endObject();
        json.name("wovenTypes").count(status.wovenTypes());
        json.name("internalErrors").count(status.internalErrors());
        json.name("reweaving").value(status.reweaving().isEmpty() ? null : status.reweaving());
        json.name("lastReweave").value(status.lastReweave().isEmpty() ? null : status.lastReweave());
        json.name("store");
        store(json, status.store());
        json.name("rules").beginArray();
        for (RuleStatus rule : status.rules()) {
            rule(json, rule);
        }
        json.endArray();
        return json.endObject().toString();
    }

    private static void rule(JsonWriter json, RuleStatus rule) {
        json.beginObject()
                .name("id").value(rule.id())
                .name("match").value(rule.match())
                .name("key").value(rule.key())
                .name("strategy").value(rule.strategy())
                .name("limit").count(rule.limit())
                .name("windowMillis").count(rule.windowMillis())
                .name("capacity").count(rule.capacity())
                .name("mode").value(rule.mode())
                .name("fileMode").value(rule.fileMode())
                .name("allowed").count(rule.allowed())
                .name("rejected").count(rule.rejected())
                .name("wouldReject").count(rule.wouldReject())
                .name("errors").count(rule.errors())
                .name("activeKeys").count(rule.activeKeys())
                .name("keysRefused").count(rule.keysRefused())
                .name("noClassLoaded").value(rule.noClassLoaded())
                .name("adaptiveLimit").count(rule.adaptiveLimit())
                .name("topRejectedKeys").beginArray();
        for (TopKey key : rule.topRejectedKeys()) {
            json.beginObject().name("key").value(key.key()).name("count").value(key.count())
                    .name("error").value(key.error()).endObject();
        }
        json.endArray().endObject();
    }

    private static void store(JsonWriter json, StoreStatus store) {
        if (store == null) {
            json.nullValue();
            return;
        }
        json.beginObject()
                .name("type").value(store.type())
                .name("state").value(store.state())
                .name("uri").value(store.uri())
                .name("onFailure").value(store.onFailure())
                .name("roundTrips").count(store.roundTrips())
                .name("errors").count(store.errors())
                .name("timeouts").count(store.timeouts())
                .name("fallbacks").count(store.fallbacks())
                .name("circuitOpens").count(store.circuitOpens())
                .name("latencyP50Micros").count(store.latencyP50Micros())
                .name("latencyP99Micros").count(store.latencyP99Micros())
                .name("latencyMaxMicros").count(store.latencyMaxMicros())
                .endObject();
    }
}
