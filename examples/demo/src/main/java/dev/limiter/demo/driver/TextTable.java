package dev.limiter.demo.driver;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table: text columns left-aligned, counters right-aligned ({@code alignment}: one l or r each). */
final class TextTable {

    private final String[] header;
    private final String alignment;
    private final List<String[]> rows = new ArrayList<>();

    TextTable(String alignment, String... header) {
        if (alignment.length() != header.length) {
            throw new IllegalArgumentException("one alignment per column");
        }
        this.header = header;
        this.alignment = alignment;
    }

    void add(String... row) {
        rows.add(row);
    }

    /** The table's lines, header and rule first. */
    List<String> lines() {
        int[] widths = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            widths[c] = header[c].length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(line(header, widths));
        StringBuilder rule = new StringBuilder();
        for (int c = 0; c < widths.length; c++) {
            rule.append(c == 0 ? "" : "  ").append("-".repeat(widths[c]));
        }
        lines.add(rule.toString());
        for (String[] row : rows) {
            lines.add(line(row, widths));
        }
        return lines;
    }

    private String line(String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            String pad = " ".repeat(widths[c] - cells[c].length());
            line.append(c == 0 ? "" : "  ").append(alignment.charAt(c) == 'l' ? cells[c] + pad : pad + cells[c]);
        }
        return line.toString().stripTrailing();
    }
}
