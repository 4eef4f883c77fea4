package dev.limiter.agent.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain text table: a header, rows, columns padded to their widest cell, left- or right-aligned ({@code l} /
 * {@code r} per column), two spaces between columns, no trailing spaces. Cells must be one line of safe text
 * ({@link TerminalText}).
 */
final class TextColumns {

    private final String alignment;
    private final List<String[]> rows = new ArrayList<>();

    TextColumns(String alignment, String... header) {
        if (alignment.length() != header.length) {
            throw new IllegalArgumentException(alignment + " does not align " + header.length + " columns");
        }
        this.alignment = alignment;
        rows.add(header);
    }

    void add(String... cells) {
        if (cells.length != alignment.length()) {
            throw new IllegalArgumentException(cells.length + " cells for " + alignment.length() + " columns");
        }
        rows.add(cells);
    }

    List<String> lines() {
        int[] widths = new int[alignment.length()];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                if (i > 0) {
                    line.append("  ");
                }
                String pad = " ".repeat(widths[i] - row[i].length());
                line.append(alignment.charAt(i) == 'r' ? pad + row[i] : row[i] + pad);
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }
}
