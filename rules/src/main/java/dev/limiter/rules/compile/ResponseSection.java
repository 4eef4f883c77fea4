package dev.limiter.rules.compile;

import dev.limiter.rules.response.HeaderStyle;
import dev.limiter.rules.response.ResponseSpec;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;

/** Validates the top-level {@code response:} section (status, content type, body template, header style). */
final class ResponseSection {

    private ResponseSection() {
    }

    /** The spec of {@code node} ({@link ResponseSpec#DEFAULT} when absent or invalid); problems are recorded. */
    static ResponseSpec read(YamlNode node, Problems problems) {
        if (node == null) {
            return ResponseSpec.DEFAULT;
        }
        Fields response = Fields.of(node, "response", problems, "status", "content-type", "body", "headers");
        if (response == null) {
            return ResponseSpec.DEFAULT;
        }
        Long status = response.integer("status", (long) ResponseSpec.DEFAULT_STATUS);
        if (status != null && (status < 400 || status > 599)) {
            problems.add(response.get("status"), "status must be an HTTP error status from 400 to 599, not "
                    + status);
        }
        String contentType = response.has("content-type") ? response.string("content-type")
                : ResponseSpec.DEFAULT_CONTENT_TYPE;
        if (contentType != null && (contentType.isBlank() || contentType.indexOf('\n') >= 0
                || contentType.indexOf('\r') >= 0)) {
            problems.add(response.get("content-type"), "content-type must be one non-empty line");
        }
        String body = response.has("body") ? response.string("body") : ResponseSpec.DEFAULT_BODY;
        String headers = response.has("headers") ? response.choice("headers", "draft", "legacy", "both", "none")
                : "draft";
        ResponseSpec spec = null;
        if (body != null) {
            try {
                spec = ResponseSpec.create(status == null ? ResponseSpec.DEFAULT_STATUS : status.intValue(),
                        contentType == null ? ResponseSpec.DEFAULT_CONTENT_TYPE : contentType, body,
                        headers == null ? HeaderStyle.DRAFT : HeaderStyle.bySpelling(headers));
            } catch (IllegalArgumentException e) {
                problems.add(response.get("body"), e.getMessage());
            }
        }
        return spec == null ? ResponseSpec.DEFAULT : spec;
    }
}
