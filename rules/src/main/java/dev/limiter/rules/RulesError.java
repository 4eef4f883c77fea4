package dev.limiter.rules;

/**
 * One problem in a rules file, with the position a person needs to fix it.
 *
 * <p>Printed like a compiler diagnostic, {@code file:line:col: message}, so editors and CI logs can link to it.
 * Lines and columns start at 1; a problem with the file as a whole (missing, too large) is reported at 1:1.
 */
public record RulesError(String file, int line, int column, String message) {

    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + message;
    }
}
