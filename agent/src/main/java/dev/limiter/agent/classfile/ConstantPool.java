package dev.limiter.agent.classfile;

/**
 * The lengths of constant-pool entries, for the scanners that read a class file's pool without parsing it (the
 * weaver's name and annotation pre-checks run on every class the JVM loads).
 */
public final class ConstantPool {

    /** The tag of a {@code CONSTANT_Utf8} entry: two bytes of length, then the bytes. */
    public static final int UTF8 = 1;

    private ConstantPool() {
    }

    /** The byte length, tag included, of an entry other than Utf8; 0 for a tag this reader does not know. */
    public static int length(int tag) {
        switch (tag) {
            case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                return 3;
            case 15: // MethodHandle
                return 4;
            case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                return 5;
            case 5: case 6: // Long, Double
                return 9;
            default:
                return 0;
        }
    }

    /** True for the entries that take two slots of the pool (Long, Double). */
    public static boolean isWide(int tag) {
        return tag == 5 || tag == 6;
    }
}
