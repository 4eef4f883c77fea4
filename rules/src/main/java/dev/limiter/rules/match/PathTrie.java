package dev.limiter.rules.match;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * All HTTP rules' path patterns in one segment trie, so one request path is matched against every rule in a
 * single walk: cost grows with the path's depth and the wildcards on it, not with the number of rules.
 *
 * <p>Literal children sit in an open-addressed table probed with the hash of the segment computed in place, so
 * no substring is made; {@code *} / {@code {name}} children, segment globs and a trailing {@code **} are
 * separate edges. Patterns with a {@code **} before the end do not fit a trie walk without backtracking and are
 * matched one by one ({@link PathPattern}); they are rare. Matching runs on the request path: no allocation.
 *
 * <p>Generic over what it holds (the rules, in the model) so that matching knows nothing of rules: an entry
 * only tells its position in file order and the HTTP methods it applies to.
 *
 * @param <T> what a pattern leads to
 */
public final class PathTrie<T extends PathTrie.Entry> {

    /** What the trie holds: matches are reported once each, in {@link #index()} order. */
    public interface Entry {

        /** Position in file order (0-based), which is also the entry's index in {@link Builder#build}'s array. */
        int index();

        /** The {@link HttpMethods} bits the entry applies to. */
        int methodBits();
    }

    private final T[] rules;
    private final Node root;
    private final PathPattern[] complex;
    private final int[] complexRules;

    private PathTrie(T[] rules, Node root, PathPattern[] complex, int[] complexRules) {
        this.rules = rules;
        this.root = root;
        this.complex = complex;
        this.complexRules = complexRules;
    }

    /** Collects (pattern, rule index) pairs, then freezes them into a trie. */
    public static final class Builder {
        private final Draft root = new Draft();
        private final List<PathPattern> complex = new ArrayList<>();
        private final List<Integer> complexRules = new ArrayList<>();

        public void add(PathPattern pattern, int ruleIndex) {
            if (!pattern.isSimple()) {
                complex.add(pattern);
                complexRules.add(ruleIndex);
                return;
            }
            Draft node = root;
            for (int i = 0; i < pattern.size(); i++) {
                byte kind = pattern.kind(i);
                if (kind == PathPattern.DEEP) {
                    node.rest.add(ruleIndex);
                    return;
                }
                if (kind == PathPattern.LITERAL) {
                    node = Draft.child(node.literals, pattern.segment(i));
                } else if (kind == PathPattern.ANY) {
                    if (node.any == null) {
                        node.any = new Draft();
                    }
                    node = node.any;
                } else {
                    node = Draft.child(node.globs, pattern.segment(i));
                }
            }
            node.terminal.add(ruleIndex);
        }

        /** The trie over {@code rules}, indexed by the indexes given to {@link #add}. */
        public <T extends Entry> PathTrie<T> build(T[] rules) {
            int[] indexes = new int[complexRules.size()];
            for (int i = 0; i < indexes.length; i++) {
                indexes[i] = complexRules.get(i);
            }
            return new PathTrie<>(rules, root.freeze(), complex.toArray(new PathPattern[0]), indexes);
        }
    }

    private static final class Draft {
        final Map<String, Draft> literals = new LinkedHashMap<>();
        final Map<String, Draft> globs = new LinkedHashMap<>();
        Draft any;
        final List<Integer> terminal = new ArrayList<>();
        final List<Integer> rest = new ArrayList<>();

        /** The child under {@code segment}, created if new (no lambda: the rules compile at start-up). */
        static Draft child(Map<String, Draft> children, String segment) {
            Draft child = children.get(segment);
            if (child == null) {
                child = new Draft();
                children.put(segment, child);
            }
            return child;
        }

        Node freeze() {
            int size = Integer.highestOneBit(Math.max(1, literals.size() * 2 - 1)) << 1;
            String[] keys = new String[literals.isEmpty() ? 0 : size];
            Node[] nodes = new Node[keys.length];
            for (Map.Entry<String, Draft> literal : literals.entrySet()) {
                int slot = slot(literal.getKey().hashCode(), keys.length);
                while (keys[slot] != null) {
                    slot = (slot + 1) & (keys.length - 1);
                }
                keys[slot] = literal.getKey();
                nodes[slot] = literal.getValue().freeze();
            }
            String[] globTexts = globs.keySet().toArray(new String[0]);
            Node[] globNodes = new Node[globTexts.length];
            for (int i = 0; i < globTexts.length; i++) {
                globNodes[i] = globs.get(globTexts[i]).freeze();
            }
            return new Node(keys, nodes, any == null ? null : any.freeze(), globTexts, globNodes,
                    toArray(terminal), toArray(rest));
        }

        private static int[] toArray(List<Integer> values) {
            int[] array = new int[values.size()];
            for (int i = 0; i < array.length; i++) {
                array[i] = values.get(i);
            }
            return array;
        }
    }

    private record Node(String[] keys, Node[] nodes, Node any, String[] globs, Node[] globNodes,
            int[] terminal, int[] rest) {

        Node literal(String path, int start, int end) {
            if (keys.length == 0) {
                return null;
            }
            int mask = keys.length - 1;
            int slot = slot(PathSegments.hash(path, start, end), keys.length);
            while (true) {
                String key = keys[slot];
                if (key == null) {
                    return null;
                }
                if (PathSegments.equals(path, start, end, key)) {
                    return nodes[slot];
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    /**
     * Home slot of a hash in a power-of-two table: Fibonacci hashing takes the high bits of a multiply, because
     * similar segments ({@code res1}, {@code res2}) have consecutive {@code String} hashes that would cluster
     * under plain masking with linear probing.
     */
    private static int slot(int hash, int tableSize) {
        return (hash * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(tableSize)) & (tableSize - 1);
    }

    /**
     * Writes the rules whose patterns match {@code path} and whose methods include {@code methodBit} into
     * {@code out} (each once, at most {@code out.length}, in file order) and returns how many.
     */
    public int match(String path, int methodBit, T[] out) {
        int count = walk(root, path, PathSegments.next(path, 0), methodBit, out, 0);
        for (int i = 0; i < complex.length; i++) {
            if (complex[i].matches(path)) {
                count = accept(complexRules[i], methodBit, out, count);
            }
        }
        // insertion sort by file position: counts are tiny and this allocates nothing
        for (int i = 1; i < count; i++) {
            T rule = out[i];
            int j = i - 1;
            while (j >= 0 && out[j].index() > rule.index()) {
                out[j + 1] = out[j];
                j--;
            }
            out[j + 1] = rule;
        }
        return count;
    }

    private int accept(int ruleIndex, int methodBit, T[] out, int count) {
        T rule = rules[ruleIndex];
        if ((rule.methodBits() & methodBit) == 0) {
            return count;
        }
        for (int i = 0; i < count; i++) {
            if (out[i] == rule) {
                return count;
            }
        }
        if (count == out.length) {
            return count;
        }
        out[count] = rule;
        return count + 1;
    }

    private int walk(Node node, String path, int start, int methodBit, T[] out, int count) {
        int[] rest = node.rest;
        for (int i = 0; i < rest.length; i++) {
            count = accept(rest[i], methodBit, out, count);
        }
        if (start >= path.length()) {
            int[] terminal = node.terminal;
            for (int i = 0; i < terminal.length; i++) {
                count = accept(terminal[i], methodBit, out, count);
            }
            return count;
        }
        int end = PathSegments.textEnd(path, start);
        int next = PathSegments.next(path, PathSegments.after(path, end));
        Node literal = node.literal(path, start, end);
        if (literal != null) {
            count = walk(literal, path, next, methodBit, out, count);
        }
        if (node.any != null) {
            count = walk(node.any, path, next, methodBit, out, count);
        }
        String[] globs = node.globs;
        for (int i = 0; i < globs.length; i++) {
            if (PathSegments.globMatches(globs[i], path, start, end)) {
                count = walk(node.globNodes[i], path, next, methodBit, out, count);
            }
        }
        return count;
    }
}
