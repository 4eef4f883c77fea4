package dev.limiter.rules.response;

import dev.limiter.core.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * How an HTTP rejection looks ({@code response:}): status, content type, body template and header style.
 *
 * <p>The body template is split once into literal parts and the placeholders {@code ${rule}} and
 * {@code ${retry_after}}, so rendering is a few appends (rejections may allocate; the admitted path never
 * calls this). The rule id is JSON-escaped when substituted, so a template that is JSON stays JSON.
 */
public final class ResponseSpec {

    /** Receives one response header. */
    @FunctionalInterface
    public interface HeaderSink {
        void header(String name, String value);
    }

    public static final int DEFAULT_STATUS = 429;
    public static final String DEFAULT_CONTENT_TYPE = "application/json";
    public static final String DEFAULT_BODY =
            "{\"error\":\"too_many_requests\",\"rule\":\"${rule}\",\"retry_after\":${retry_after}}";

    /** 429 with a JSON body naming the rule and the seconds to wait, and the draft's headers. */
    public static final ResponseSpec DEFAULT =
            create(DEFAULT_STATUS, DEFAULT_CONTENT_TYPE, DEFAULT_BODY, HeaderStyle.DRAFT);

    static final String RULE = "${rule}";
    static final String RETRY_AFTER = "${retry_after}";

    private final int status;
    private final String contentType;
    private final String body;
    private final HeaderStyle headerStyle;
    private final String[] literals;
    private final String[] placeholders;

    private ResponseSpec(int status, String contentType, String body, HeaderStyle headerStyle, String[] literals,
            String[] placeholders) {
        this.status = status;
        this.contentType = contentType;
        this.body = body;
        this.headerStyle = headerStyle;
        this.literals = literals;
        this.placeholders = placeholders;
    }

    /**
     * A response spec.
     *
     * @throws IllegalArgumentException if the body names a placeholder other than {@code ${rule}} and
     *     {@code ${retry_after}}, with a message fit for a rules error
     */
    public static ResponseSpec create(int status, String contentType, String body, HeaderStyle headerStyle) {
        List<String> literals = new ArrayList<>();
        List<String> placeholders = new ArrayList<>();
        int from = 0;
        while (true) {
            int open = body.indexOf("${", from);
            if (open < 0) {
                literals.add(body.substring(from));
                break;
            }
            int close = body.indexOf('}', open);
            String placeholder = close < 0 ? body.substring(open) : body.substring(open, close + 1);
            if (!placeholder.equals(RULE) && !placeholder.equals(RETRY_AFTER)) {
                throw new IllegalArgumentException("unknown placeholder '" + placeholder
                        + "' in the body: only ${rule} and ${retry_after} are supported");
            }
            literals.add(body.substring(from, open));
            placeholders.add(placeholder);
            from = close + 1;
        }
        return new ResponseSpec(status, contentType, body, headerStyle, literals.toArray(new String[0]),
                placeholders.toArray(new String[0]));
    }

    public int status() {
        return status;
    }

    public String contentType() {
        return contentType;
    }

    /** The body template as written. */
    public String body() {
        return body;
    }

    public HeaderStyle headerStyle() {
        return headerStyle;
    }

    /** The rejection body for a rule, with {@code ${rule}} (JSON-escaped) and {@code ${retry_after}} filled in. */
    public String renderBody(String ruleId, long retryAfterSeconds) {
        StringBuilder text = new StringBuilder(body.length() + 32);
        for (int i = 0; i < placeholders.length; i++) {
            text.append(literals[i]);
            if (placeholders[i].equals(RULE)) {
                appendJsonEscaped(text, ruleId);
            } else {
                text.append(retryAfterSeconds);
            }
        }
        text.append(literals[literals.length - 1]);
        return text.toString();
    }

    /**
     * The headers of a response decided by the rule whose header values are {@code text}, with outcome
     * {@code out} (see {@link Outcome}).
     *
     * <p>{@code Retry-After} on rejections always; then per {@link #headerStyle()}: the draft's
     * {@code RateLimit-Policy} (precomputed per rule) and {@code RateLimit: "id";r=REMAINING;t=SECONDS}, and/or
     * {@code X-RateLimit-Limit / -Remaining / -Reset} (reset as epoch seconds). The values come from the rule's
     * {@link HeaderText} ({@code Rule.headerText()}), so an admitted request allocates nothing once its numbers
     * have been sent before; a rejection formats {@code Retry-After}.
     *
     * @param nowMillis current epoch millis, for the draft's seconds-until-reset
     */
    public void headers(HeaderText text, long[] out, boolean rejected, long nowMillis, HeaderSink sink) {
        if (rejected) {
            sink.header("Retry-After", Long.toString(Outcome.retryAfterSeconds(out)));
        }
        long remaining = Math.max(0, out[Outcome.REMAINING]);
        long reset = out[Outcome.RESET_EPOCH_SECONDS];
        if (headerStyle.draft()) {
            long seconds = Math.max(0, reset - nowMillis / 1000);
            sink.header("RateLimit-Policy", text.policy());
            sink.header("RateLimit", text.rateLimit(remaining, seconds));
        }
        if (headerStyle.legacy()) {
            sink.header("X-RateLimit-Limit", text.limit());
            sink.header("X-RateLimit-Remaining", text.remaining(remaining));
            sink.header("X-RateLimit-Reset", text.reset(reset));
        }
    }

    static void appendJsonEscaped(StringBuilder text, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"':
                    text.append("\\\"");
                    break;
                case '\\':
                    text.append("\\\\");
                    break;
                case '\n':
                    text.append("\\n");
                    break;
                case '\r':
                    text.append("\\r");
                    break;
                case '\t':
                    text.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                        text.append(String.format("\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
            }
        }
    }
}
