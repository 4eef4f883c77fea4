package dev.limiter.rules.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.FileProblems;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The YAML a rules file does not use is refused where it stands, with a message naming it, even where a full
 * YAML parser reads it ({@code YamlTreeReaderEquivalenceTest} checks everything else against one).
 */
class YamlSubsetRefusalsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', textBlock = """
            anchor            ; a: &x 1\\nb: 2                 ; rules.yml:1:4: YAML anchors (&x) are not supported in rules files: write the value out
            alias             ; a: [1]\\nb: *x                 ; rules.yml:2:4: YAML aliases (*x) are not supported in rules files: write the value out
            alias in a flow   ; a: [1, *x]                     ; rules.yml:1:8: YAML aliases (*x) are not supported in rules files: write the value out
            tag               ; a: !!int 10                    ; rules.yml:1:4: YAML tags (!!int) are not supported in rules files: write the value alone (quote it to make it a string)
            local tag         ; a: !x 10                       ; rules.yml:1:4: YAML tags (!x) are not supported in rules files: write the value alone (quote it to make it a string)
            literal scalar    ; a: |\\n  text\\n               ; rules.yml:1:4: YAML block scalars ('|') are not supported in rules files: write the value in quotes (a quoted value may span lines)
            folded scalar     ; - >\\n  text\\n                ; rules.yml:1:3: YAML block scalars ('>') are not supported in rules files: write the value in quotes (a quoted value may span lines)
            complex key       ; ? a\\n: 1\\n                   ; rules.yml:1:1: YAML complex keys ('? ') are not supported in rules files
            complex flow key  ; a: {? b: 1}                    ; rules.yml:1:5: YAML complex keys ('? ') are not supported in rules files
            directive         ; %YAML 1.1\\n---\\na: 1\\n      ; rules.yml:1:1: YAML directives (%YAML) are not supported in rules files: remove the line
            tab indent        ; a:\\n\\tb: 1\\n                ; rules.yml:2:1: invalid YAML: a tab outside a quoted value or a comment (YAML indents and separates with spaces)
            tab separator     ; a:\\t1\\n                      ; rules.yml:1:3: invalid YAML: a tab outside a quoted value or a comment (YAML indents and separates with spaces)
            tab in a flow     ; a: [1,\\t2]\\n                 ; rules.yml:1:7: invalid YAML: a tab outside a quoted value or a comment (YAML indents and separates with spaces)
            two documents     ; a: 1\\n---\\nb: 2\\n           ; rules.yml:3:1: only one YAML document is allowed in a rules file
            list key          ; [a]: 1\\n                      ; rules.yml:1:1: a mapping key must be a plain value, not a list
            mapping key       ; {a: 1}: 1\\n                   ; rules.yml:1:1: a mapping key must be a plain value, not a mapping
            unclosed flow     ; a: [1, 2\\n                    ; rules.yml:2:1: invalid YAML: the list opened at line 1, column 4 is not closed with ']'
            unclosed quote    ; a: 'x\\n                       ; rules.yml:1:4: invalid YAML: the quoted value is not closed with '
            bad escape        ; a: "\\q"                       ; rules.yml:1:5: invalid YAML: unknown escape '\\q' in a double-quoted value
            mapping in value  ; a: b: c\\n                     ; rules.yml:1:5: invalid YAML: mapping values are not allowed here (quote a value that contains ': ')
            list after key    ; a: - b\\n                      ; rules.yml:1:4: invalid YAML: a list cannot start on the line of its key (start it on the next line)
            over-indented     ; a: 1\\n  b: 2\\n               ; rules.yml:2:4: invalid YAML: mapping values are not allowed here (quote a value that contains ': ')
            """)
    void refusesWhereItStands(String construct, String text, String expected) {
        FileProblems problems = new FileProblems("rules.yml");
        YamlNode root = YamlTreeReader.read(text.replace("\\n", "\n").replace("\\t", "\t"), problems);
        assertThat(root).as(construct).isNull();
        try {
            problems.throwIfAny();
            Assertions.fail("no problem reported for " + construct);
        } catch (RulesException e) {
            assertThat(e.getMessage()).as(construct).isEqualTo(expected);
        }
    }
}
