package dev.limiter.rules.compile;

import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates the top-level {@code store:} section into a {@link StoreSpec}, reporting every bad value at its
 * position.
 *
 * <p>Checks here what a Redis client would otherwise refuse at connection time (scheme, host, port, braces in
 * the key prefix), so a typo is a {@code file:line:col} error on reload instead of a store that never connects.
 * The rules module does not depend on Redis: it only produces the value.
 */
final class StoreSection {

    /** Above this a "timeout" is a mistake: a request must never wait that long on Redis. */
    static final long MAX_TIMEOUT_MILLIS = 60_000;

    private StoreSection() {
    }

    /** The spec of {@code node} ({@link StoreSpec#LOCAL} when absent); problems are recorded, never thrown. */
    static StoreSpec read(YamlNode node, Problems problems) {
        if (node == null) {
            return StoreSpec.LOCAL;
        }
        Fields fields = Fields.of(node, "store", problems, "type", "uri", "timeout", "on-failure", "key-prefix",
                "batch");
        if (fields == null) {
            return StoreSpec.LOCAL;
        }
        String type = fields.has("type") ? fields.choice("type", StoreSpec.TYPE_LOCAL, StoreSpec.TYPE_REDIS)
                : StoreSpec.TYPE_LOCAL;
        if (type == null) {
            return StoreSpec.LOCAL;
        }
        if (StoreSpec.TYPE_LOCAL.equals(type)) {
            for (String key : new String[] {"uri", "timeout", "on-failure", "key-prefix", "batch"}) {
                if (fields.has(key)) {
                    problems.add(node.entry(key), "'" + key + "' applies to 'type: redis' only");
                }
            }
            return StoreSpec.LOCAL;
        }
        List<String> uris = uris(fields, problems);
        long timeout = timeout(fields, problems);
        String onFailure = fields.has("on-failure") ? fields.choice("on-failure", "local", "allow", "reject")
                : StoreSpec.DEFAULT_ON_FAILURE;
        String prefix = fields.has("key-prefix") ? fields.string("key-prefix") : StoreSpec.DEFAULT_KEY_PREFIX;
        if (prefix != null && (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0)) {
            problems.add(fields.get("key-prefix"), "key-prefix must not contain '{' or '}' (Redis Cluster hash"
                    + " tags are added by the store)");
        }
        int batch = batch(fields, problems);
        return new StoreSpec(StoreSpec.TYPE_REDIS, uris, timeout,
                onFailure == null ? StoreSpec.DEFAULT_ON_FAILURE : onFailure,
                prefix == null ? StoreSpec.DEFAULT_KEY_PREFIX : prefix, batch);
    }

    /** Permits reserved per round trip: a whole number from 1 (off) to {@link StoreSpec#MAX_BATCH}. */
    private static int batch(Fields fields, Problems problems) {
        Long batch = fields.integer("batch", (long) StoreSpec.DEFAULT_BATCH);
        if (batch == null) {
            return StoreSpec.DEFAULT_BATCH;
        }
        if (batch < 1 || batch > StoreSpec.MAX_BATCH) {
            problems.add(fields.get("batch"), "batch must be from 1 (off) to " + StoreSpec.MAX_BATCH + ", not "
                    + batch);
            return StoreSpec.DEFAULT_BATCH;
        }
        return (int) (long) batch;
    }

    private static List<String> uris(Fields fields, Problems problems) {
        List<String> uris = new ArrayList<>();
        if (!fields.has("uri")) {
            fields.missing("uri");
            return uris;
        }
        YamlNode value = fields.get("uri");
        if (value.is(YamlNode.Kind.LIST)) {
            List<YamlNode> items = fields.stringList("uri");
            if (items != null && items.isEmpty()) {
                problems.add(value, "uri must list at least one redis:// or rediss:// address");
            }
            for (YamlNode item : items == null ? List.<YamlNode>of() : items) {
                uri(item.text().trim(), item, uris, problems);
            }
            return uris;
        }
        String text = fields.string("uri");
        if (text == null) {
            return uris;
        }
        for (String part : text.split(",", -1)) {
            uri(part.trim(), value, uris, problems);
        }
        return uris;
    }

    private static void uri(String text, YamlNode at, List<String> uris, Problems problems) {
        String problem = uriProblem(text);
        if (problem != null) {
            problems.add(at, problem);
        } else {
            uris.add(text);
        }
    }

    /** Why {@code text} is not a Redis address, or null. */
    static String uriProblem(String text) {
        String shown = Fields.shorten(text);
        if (!text.startsWith("redis://") && !text.startsWith("rediss://")) {
            return "uri '" + shown + "' must start with redis:// or rediss:// (TLS)";
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return "uri '" + shown + "' is not a valid URI: " + e.getReason();
        }
        if (uri.getHost() == null) {
            return "uri '" + shown + "' has no host (write e.g. redis://127.0.0.1:6379)";
        }
        if (uri.getPort() == 0 || uri.getPort() > 65_535) {
            return "uri '" + shown + "' has an invalid port";
        }
        String path = uri.getPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            String db = path.substring(1);
            if (db.isEmpty() || db.length() > 5 || !db.chars().allMatch(Character::isDigit)) {
                return "uri '" + shown + "': the path must be a database number, like /0";
            }
        }
        return null;
    }

    private static long timeout(Fields fields, Problems problems) {
        if (!fields.has("timeout")) {
            return StoreSpec.DEFAULT_TIMEOUT_MILLIS;
        }
        YamlNode node = fields.get("timeout");
        if (node.is(YamlNode.Kind.INT)) {
            problems.add(node, "timeout '" + Fields.shorten(node.text()) + "' has no unit: write e.g. "
                    + Fields.shorten(node.text()) + "ms");
            return StoreSpec.DEFAULT_TIMEOUT_MILLIS;
        }
        String text = fields.string("timeout");
        if (text == null) {
            return StoreSpec.DEFAULT_TIMEOUT_MILLIS;
        }
        long millis = Durations.millis(text);
        if (millis < 0) {
            problems.add(node, "timeout '" + Fields.shorten(text) + "' is not a duration: write a whole number"
                    + " and a unit, like 50ms or 1s");
        } else if (millis < 1 || millis > MAX_TIMEOUT_MILLIS) {
            problems.add(node, "timeout must be from 1ms to 60s, not " + Fields.shorten(text));
        } else {
            return millis;
        }
        return StoreSpec.DEFAULT_TIMEOUT_MILLIS;
    }
}
