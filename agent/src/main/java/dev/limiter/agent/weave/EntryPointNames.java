package dev.limiter.agent.weave;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A first look at a class file, before any super type is read: can this class declare an entry point at all?
 * A class can only declare a method a {@link WeaveTarget} weaves ({@code service}, {@code doFilter},
 * {@code toResponse}) if that name is one of the UTF-8 entries of its constant pool, so a class whose pool has
 * none of them is passed over without the super-type walk ({@link SuperTypes}), which reads the class files of
 * its super types and is most of what the transformer costs while an application starts (a Tomcat start has
 * ~500 candidates, a handful of them servlets or filters).
 *
 * <p>Classes that only call such a method (a filter chain's caller) pass too and are judged by their super types
 * as before; the walk only decides for fewer classes. A class file this reader does not understand (a constant
 * pool tag it does not know) passes.
 */
final class EntryPointNames {

    /** Every target's method names once, as the constant pool holds them (ASCII is their modified UTF-8). */
    private static final byte[][] NAMES;
    /** The {@link WeaveTarget} bits of the targets that weave a method of each name. */
    private static final int[] NAME_TARGETS;

    static {
        int most = 0;
        for (WeaveTarget target : WeaveTarget.ALL) {
            most += target.methods.length;
        }
        // targets woven in one named class are found by that name: their method names never make a candidate
        String[] names = new String[most];
        int[] targets = new int[most];
        int count = 0;
        for (WeaveTarget target : WeaveTarget.ALL) {
            if ((target.bit & WeaveTarget.EXACT_CLASSES) != 0) {
                continue;
            }
            for (String method : target.methods) {
                int at = 0;
                while (at < count && !names[at].equals(method)) {
                    at++;
                }
                if (at == count) {
                    names[count++] = method;
                }
                targets[at] |= target.bit;
            }
        }
        NAMES = new byte[count][];
        for (int i = 0; i < count; i++) {
            NAMES[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        NAME_TARGETS = Arrays.copyOf(targets, count);
    }

    private EntryPointNames() {
    }

    /** {@link #scan} found a name of an entry point of the targets asked for. */
    static final int ENTRY_POINT = 1;
    /** {@link #scan} found the descriptor of {@code @Limit} ({@link AnnotationPresence}). */
    static final int ANNOTATED = 2;

    /** False only if the class cannot declare an entry point of the {@link WeaveTarget} bits {@code targets}. */
    static boolean mayDeclare(byte[] classFile, int targets) {
        return (scan(classFile, targets) & ENTRY_POINT) != 0;
    }

    /**
     * One walk of the constant pool for both questions the transformer asks of every class it does not reject by
     * name: can it declare an entry point of {@code targets} ({@link #ENTRY_POINT}), and can it carry
     * {@code @Limit} ({@link #ANNOTATED})? A pool this reader does not understand answers both.
     */
    static int scan(byte[] classFile, int targets) {
        if (classFile.length < 10) {
            return ENTRY_POINT;
        }
        int found = 0;
        int count = u2(classFile, 8);
        int at = 10;
        for (int index = 1; index < count; index++) {
            if (at >= classFile.length) {
                return ENTRY_POINT | ANNOTATED;
            }
            int tag = classFile[at];
            switch (tag) {
                case 1: // Utf8
                    int length = u2(classFile, at + 1);
                    int start = at + 3;
                    if ((found & ENTRY_POINT) == 0 && isNameOf(classFile, start, length, targets)) {
                        found |= ENTRY_POINT;
                    } else if (length == AnnotationPresence.LIMIT.length && AnnotationPresence.equal(classFile, start)) {
                        found |= ANNOTATED;
                    }
                    if (found == (ENTRY_POINT | ANNOTATED)) {
                        return found;
                    }
                    at = start + length;
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    at += 3;
                    break;
                case 15: // MethodHandle
                    at += 4;
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                    at += 5;
                    break;
                case 5: case 6: // Long, Double: two slots
                    at += 9;
                    index++;
                    break;
                default:
                    return ENTRY_POINT | ANNOTATED;
            }
        }
        return found;
    }

    /** True if the constant at {@code start} is the name of a method one of the targets {@code targets} weaves. */
    private static boolean isNameOf(byte[] classFile, int start, int length, int targets) {
        for (int i = 0; i < NAMES.length; i++) {
            if ((NAME_TARGETS[i] & targets) != 0 && equal(classFile, start, length, NAMES[i])) {
                return true;
            }
        }
        return false;
    }

    private static boolean equal(byte[] classFile, int start, int length, byte[] name) {
        if (length != name.length || start + length > classFile.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (classFile[start + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    private static int u2(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF;
    }
}
