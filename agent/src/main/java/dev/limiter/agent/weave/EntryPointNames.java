package dev.limiter.agent.weave;

/**
 * A first look at a class file, before any super type is read: can this class declare an entry point at all?
 * A class can only declare {@code service}, {@code doFilter} or {@code toResponse} if that name is one of the
 * UTF-8 entries of its constant pool, so a class whose pool has none of them is passed over without the
 * super-type walk ({@link SuperTypes}), which reads the class files of its super types and is most of what the
 * transformer costs while an application starts (a Tomcat start has ~500 candidates, a handful of them servlets
 * or filters).
 *
 * <p>Classes that only call such a method (a filter chain's caller) pass too and are judged by their super types
 * as before; the walk only decides for fewer classes. A class file this reader does not understand (a constant
 * pool tag it does not know) passes.
 */
final class EntryPointNames {

    private static final byte[] SERVICE = ascii("service");
    private static final byte[] DO_FILTER = ascii("doFilter");
    private static final byte[] TO_RESPONSE = ascii("toResponse");

    private EntryPointNames() {
    }

    /** False only if the class cannot declare an entry point of the {@link WeaveTarget} bits {@code targets}. */
    static boolean mayDeclare(byte[] classFile, int targets) {
        boolean servlets = (targets & WeaveTarget.SERVLETS) != 0;
        boolean mappers = (targets & WeaveTarget.MAPPERS) != 0;
        if (classFile.length < 10) {
            return true;
        }
        int count = u2(classFile, 8);
        int at = 10;
        for (int index = 1; index < count; index++) {
            if (at >= classFile.length) {
                return true;
            }
            int tag = classFile[at];
            switch (tag) {
                case 1: // Utf8
                    int length = u2(classFile, at + 1);
                    int start = at + 3;
                    if (servlets && (equal(classFile, start, length, SERVICE) || equal(classFile, start, length, DO_FILTER))
                            || mappers && equal(classFile, start, length, TO_RESPONSE)) {
                        return true;
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

    private static byte[] ascii(String name) {
        return name.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
