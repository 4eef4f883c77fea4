package dev.limiter.agent.classfile;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The one way the agent opens a class file: ASM's reader (Byte Buddy's repackaged copy, the only part of Byte
 * Buddy the agent carries) and the ASM API level every visitor of ours declares. A class file newer than this
 * ASM reads is refused with an {@link IllegalArgumentException}, which the transformer logs, leaving the class
 * unchanged.
 */
public final class ClassReaders {

    /** The ASM API level of every visitor. */
    public static final int API = Opcodes.ASM9;

    private ClassReaders() {
    }

    /** A reader of {@code classFile}, which it does not copy (and the caller must not change while it reads). */
    public static ClassReader of(byte[] classFile) {
        return new ClassReader(classFile);
    }
}
