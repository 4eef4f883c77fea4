package dev.limiter.agent.weave;

import dev.limiter.agent.classfile.ConstantPool;
import java.nio.charset.StandardCharsets;

/**
 * A first look at a class file for {@code @Limit}: an annotation on the class or one of its methods puts the
 * annotation's descriptor {@code Ldev/limiter/api/Limit;} among the UTF-8 entries of the constant pool, so a class
 * without that entry (all but a handful) is passed over after one walk of its pool, before anything is parsed.
 *
 * <p>For classes whose loader sees a servlet or JAX-RS API (most of a server's), the same walk that looks for
 * entry-point names answers this too ({@link EntryPointNames#scan}); this class walks alone only for the others.
 * The walk jumps from entry to entry and compares only UTF-8 entries of the descriptor's length, so it costs
 * far less than a byte search over the class file. A class file whose pool this reader does not understand (a tag
 * it does not know) passes: the full read then decides.
 */
public final class AnnotationPresence {

    /** The descriptor of {@code dev.limiter.api.Limit}, as the constant pool holds it. */
    static final byte[] LIMIT = "Ldev/limiter/api/Limit;".getBytes(StandardCharsets.US_ASCII);

    private AnnotationPresence() {
    }

    /** False only if no class, field or method of {@code classFile} can carry {@code @Limit}. */
    public static boolean mayDeclare(byte[] classFile) {
        if (classFile.length < 10) {
            return false;
        }
        int count = u2(classFile, 8);
        int at = 10;
        for (int index = 1; index < count; index++) {
            if (at >= classFile.length) {
                return true;
            }
            int tag = classFile[at];
            if (tag == ConstantPool.UTF8) {
                int length = u2(classFile, at + 1);
                int start = at + 3;
                if (length == LIMIT.length && equal(classFile, start)) {
                    return true;
                }
                at = start + length;
                continue;
            }
            int length = ConstantPool.length(tag);
            if (length == 0) {
                return true;
            }
            at += length;
            if (ConstantPool.isWide(tag)) {
                index++;
            }
        }
        return false;
    }

    /** True if the {@link #LIMIT}-long UTF-8 entry at {@code start} is the descriptor. */
    static boolean equal(byte[] classFile, int start) {
        if (start + LIMIT.length > classFile.length) {
            return false;
        }
        for (int i = LIMIT.length - 1; i >= 0; i--) { // from the end: most descriptors share "L" and a package
            if (classFile[start + i] != LIMIT[i]) {
                return false;
            }
        }
        return true;
    }

    private static int u2(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF;
    }
}
