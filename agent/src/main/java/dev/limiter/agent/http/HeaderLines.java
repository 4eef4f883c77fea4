package dev.limiter.agent.http;

import java.util.List;

/** The lines of a repeated header as one value, as a servlet container joins them for the trusted-proxy rules. */
public final class HeaderLines {

    private HeaderLines() {
    }

    /** {@code lines} joined with {@code ,}; the one line itself (no copy) if there is one; null if none. */
    public static String joined(List<?> lines) {
        if (lines == null || lines.isEmpty()) {
            return null;
        }
        if (lines.size() == 1) {
            return String.valueOf(lines.get(0));
        }
        StringBuilder joined = new StringBuilder();
        for (Object line : lines) {
            if (joined.length() > 0) {
                joined.append(',');
            }
            joined.append(line);
        }
        return joined.toString();
    }
}
