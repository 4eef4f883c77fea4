package dev.limiter.agent.weave;

import dev.limiter.agent.classfile.ConstantPool;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A first look at a class file, before any super type is read: does this class declare a method that a
 * {@link WeaveTarget} weaves? Only then is it a candidate for the super-type walk ({@link SuperTypes}), which
 * reads the class files of its super types as resources and is most of what the transformer costs while a
 * servlet container starts.
 *
 * <p>One pass over the constant pool notes the UTF-8 entries that are a target's method name ({@code service},
 * {@code doFilter}, {@code toResponse}) or begin with its descriptor ({@code (Ljakarta/servlet/ServletRequest;
 * Ljakarta/servlet/ServletResponse;}); then the method table says whether the class declares such a method. So
 * a class that only calls one (a filter chain's caller) or declares a {@code service} of its own kind (a
 * connector's) is passed over. A class file this reader does not understand (a constant pool tag it does not
 * know, a truncated table, more matching entries than it keeps) passes, and the walk decides as before.
 */
final class EntryPointNames {

    /** Every target's method names once, as the constant pool holds them (ASCII is their modified UTF-8). */
    private static final byte[][] NAMES;
    /** The {@link WeaveTarget} bits of the targets that weave a method of each name. */
    private static final int[] NAME_TARGETS;
    /** The descriptor beginnings that say more than "an object argument", with their targets' bits. */
    private static final byte[][] DESCRIPTORS;
    private static final int[] DESCRIPTOR_TARGETS;
    /** Targets whose descriptor beginning says nothing useful ({@code (L}): their name alone counts. */
    private static final int ANY_DESCRIPTOR;
    /** How many matching entries one class file may have before it simply passes. */
    private static final int KEPT = 16;
    /**
     * Bit n is set if some name is n bytes long: the walk compares an entry with the names only then, and with the
     * descriptors only if it starts with {@code (}. Most entries are passed over without a call, which is what
     * the walk costs while it still runs in the interpreter (a server's first few hundred classes).
     */
    private static final long NAME_LENGTHS;
    /** The shortest descriptor beginning: a shorter entry cannot start with one. */
    private static final int SHORTEST_DESCRIPTOR;

    static {
        for (WeaveTarget target : WeaveTarget.ALL) {
            // a noted entry keeps name and descriptor bits in one int's halves; exact classes are found by name
            if ((target.bit & WeaveTarget.EXACT_CLASSES) == 0 && target.bit >= 1 << 16) {
                throw new IllegalStateException("weave target " + target.target.id + " is found by its methods' names"
                        + " and must be among the first 16 (registry.EntryPoints' order)");
            }
        }
        int most = 0;
        for (WeaveTarget target : WeaveTarget.ALL) {
            most += target.methods.length;
        }
        // targets woven in one named class are found by that name: their method names never make a candidate
        String[] names = new String[most];
        int[] targets = new int[most];
        int count = 0;
        String[] descriptors = new String[WeaveTarget.ALL.length];
        int[] descriptorTargets = new int[WeaveTarget.ALL.length];
        int descriptorCount = 0;
        int any = 0;
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
            if (target.descriptorStart.length() <= 2) {
                any |= target.bit;
            } else {
                descriptors[descriptorCount] = target.descriptorStart;
                descriptorTargets[descriptorCount++] = target.bit;
            }
        }
        NAMES = new byte[count][];
        long lengths = 0;
        for (int i = 0; i < count; i++) {
            NAMES[i] = names[i].getBytes(StandardCharsets.US_ASCII);
            if (NAMES[i].length >= Long.SIZE) {
                throw new IllegalStateException("weave target method name longer than 63 bytes: " + names[i]);
            }
            lengths |= 1L << NAMES[i].length;
        }
        NAME_LENGTHS = lengths;
        NAME_TARGETS = Arrays.copyOf(targets, count);
        DESCRIPTORS = new byte[descriptorCount][];
        int shortest = Integer.MAX_VALUE;
        for (int i = 0; i < descriptorCount; i++) {
            DESCRIPTORS[i] = descriptors[i].getBytes(StandardCharsets.US_ASCII);
            shortest = Math.min(shortest, DESCRIPTORS[i].length);
        }
        SHORTEST_DESCRIPTOR = shortest;
        DESCRIPTOR_TARGETS = Arrays.copyOf(descriptorTargets, descriptorCount);
        ANY_DESCRIPTOR = any;
    }

    private EntryPointNames() {
    }

    /** {@link #scan} found a declared method of a target asked for. */
    static final int ENTRY_POINT = 1;
    /** {@link #scan} found the descriptor of {@code @Limit} ({@link AnnotationPresence}). */
    static final int ANNOTATED = 2;

    /** False only if the class declares no method of the {@link WeaveTarget} bits {@code targets}. */
    static boolean mayDeclare(byte[] classFile, int targets) {
        return (scan(classFile, targets) & ENTRY_POINT) != 0;
    }

    /**
     * One walk of the class file for both questions the transformer asks of every class it does not reject by
     * name: does it declare a method of {@code targets} ({@link #ENTRY_POINT}), and can it carry {@code @Limit}
     * ({@link #ANNOTATED})? A class file this reader does not understand answers both.
     */
    static int scan(byte[] classFile, int targets) {
        if (classFile.length < 10) {
            return ENTRY_POINT;
        }
        int found = 0;
        // constant-pool index and target bits (a name's in the low half, a descriptor's in the high half) of each
        // entry that matches; allocated at the first match (most classes have none)
        int[] noted = null;
        int notes = 0;
        boolean named = false;
        int count = u2(classFile, 8);
        int at = 10;
        for (int index = 1; index < count; index++) {
            if (at >= classFile.length) {
                return ENTRY_POINT | ANNOTATED;
            }
            int tag = classFile[at];
            if (tag == ConstantPool.UTF8) {
                int length = u2(classFile, at + 1);
                int start = at + 3;
                at = start + length;
                int bits = length < Long.SIZE && (NAME_LENGTHS >>> length & 1) != 0
                        ? nameTargets(classFile, start, length, targets) : 0;
                named |= bits != 0;
                if (bits == 0 && length >= SHORTEST_DESCRIPTOR && start + length <= classFile.length
                        && classFile[start] == '(') {
                    bits = descriptorTargets(classFile, start, length, targets) << 16;
                }
                if (bits != 0) {
                    if (noted == null) {
                        noted = new int[2 * KEPT];
                    } else if (notes == KEPT) {
                        return ENTRY_POINT | ANNOTATED;
                    }
                    noted[2 * notes] = index;
                    noted[2 * notes++ + 1] = bits;
                } else if (length == AnnotationPresence.LIMIT.length && AnnotationPresence.equal(classFile, start)) {
                    found |= ANNOTATED;
                }
                continue;
            }
            int length = ConstantPool.length(tag);
            if (length == 0) {
                return ENTRY_POINT | ANNOTATED;
            }
            at += length;
            if (ConstantPool.isWide(tag)) {
                index++;
            }
        }
        if (!named) {
            return found;
        }
        int declared = declares(classFile, at, noted, notes);
        return found | (declared < 0 || declared != 0 ? ENTRY_POINT : 0);
    }

    /**
     * Whether the method table, after the constant pool ending at {@code at}, declares a method whose name and
     * descriptor entries are among the {@code notes} entries of {@code noted} for the same target (or whose
     * target takes any descriptor): 1 if so, 0 if not, -1 if the table cannot be read.
     */
    private static int declares(byte[] classFile, int at, int[] noted, int notes) {
        at += 6; // access flags, this class, super class
        if (at + 2 > classFile.length) {
            return -1;
        }
        at += 2 + 2 * u2(classFile, at); // interfaces
        at = skipMembers(classFile, at); // fields
        if (at < 0 || at + 2 > classFile.length) {
            return -1;
        }
        int methods = u2(classFile, at);
        at += 2;
        for (int m = 0; m < methods; m++) {
            if (at + 8 > classFile.length) {
                return -1;
            }
            int nameBits = bitsOf(noted, notes, u2(classFile, at + 2)) & 0xFFFF;
            if (nameBits != 0 && ((nameBits & ANY_DESCRIPTOR) != 0
                    || (nameBits & bitsOf(noted, notes, u2(classFile, at + 4)) >>> 16) != 0)) {
                return 1;
            }
            at = skipAttributes(classFile, at + 6);
            if (at < 0) {
                return -1;
            }
        }
        return 0;
    }

    /** The offset after a fields (or methods) table starting with its count at {@code at}, or -1. */
    private static int skipMembers(byte[] classFile, int at) {
        if (at + 2 > classFile.length) {
            return -1;
        }
        int members = u2(classFile, at);
        at += 2;
        for (int i = 0; i < members && at >= 0; i++) {
            at = skipAttributes(classFile, at + 6);
        }
        return at;
    }

    /** The offset after an attribute table starting with its count at {@code at}, or -1. */
    private static int skipAttributes(byte[] classFile, int at) {
        if (at + 2 > classFile.length) {
            return -1;
        }
        int attributes = u2(classFile, at);
        at += 2;
        for (int i = 0; i < attributes; i++) {
            if (at + 6 > classFile.length) {
                return -1;
            }
            long next = at + 6L + ((long) u2(classFile, at + 2) << 16 | u2(classFile, at + 4));
            if (next > classFile.length) {
                return -1;
            }
            at = (int) next;
        }
        return at;
    }

    /** The target bits noted for constant-pool entry {@code index} in {@code pairs} (index, bits), or 0. */
    private static int bitsOf(int[] pairs, int count, int index) {
        for (int i = 0; i < count; i++) {
            if (pairs[2 * i] == index) {
                return pairs[2 * i + 1];
            }
        }
        return 0;
    }

    /** The bits of the targets among {@code targets} that weave a method named by the entry at {@code start}. */
    private static int nameTargets(byte[] classFile, int start, int length, int targets) {
        int bits = 0;
        for (int i = 0; i < NAMES.length; i++) {
            if ((NAME_TARGETS[i] & targets) != 0 && equal(classFile, start, length, NAMES[i])) {
                bits |= NAME_TARGETS[i] & targets;
            }
        }
        return bits;
    }

    /**
     * The bits of the targets among {@code targets} whose descriptor beginning the entry at {@code start} has; the
     * caller checked that the entry is within the file, starts with {@code (} and is as long as the shortest one.
     */
    private static int descriptorTargets(byte[] classFile, int start, int length, int targets) {
        int bits = 0;
        for (int i = 0; i < DESCRIPTORS.length; i++) {
            byte[] prefix = DESCRIPTORS[i];
            if ((DESCRIPTOR_TARGETS[i] & targets) != 0 && length >= prefix.length
                    && startsWith(classFile, start, prefix)) {
                bits |= DESCRIPTOR_TARGETS[i];
            }
        }
        return bits;
    }

    private static boolean startsWith(byte[] classFile, int start, byte[] prefix) {
        for (int i = 1; i < prefix.length; i++) { // [0] is '(', checked
            if (classFile[start + i] != prefix[i]) {
                return false;
            }
        }
        return true;
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
