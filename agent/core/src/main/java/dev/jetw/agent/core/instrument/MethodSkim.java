package dev.jetw.agent.core.instrument;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A skim of a class file's methods (JVMS 4.1, 4.4, 4.6, 4.7.3) for the scans that run before a class is woven
 * ({@link OriginalMaxLocals}, {@link TrivialMethods}): the constant pool by {@link ConstantPool#walk} (where each entry
 * is, nothing decoded), then each method's access flags, name and descriptor indexes and where its Code attribute is.
 * No instruction is read here; a scan reads what it needs from {@link #classFile} at {@link #codeAt}.
 */
final class MethodSkim {

    final byte[] classFile;
    /** Where each constant's bytes are (after its tag; a Utf8's text), by constant-pool index; 0 for no entry. */
    private final int[] entryAt;
    private final byte[] tags;
    /** The constant-pool index of this class (this_class). */
    final int thisClass;
    final int methods;
    final int[] access;
    final int[] name;
    final int[] descriptor;
    /** Where each method's Code attribute's info starts (max_stack), or -1 when it has none. */
    final int[] codeAt;

    private MethodSkim(byte[] classFile, int poolSize) {
        this.classFile = classFile;
        this.entryAt = new int[poolSize];
        this.tags = new byte[poolSize];
        int at = walk(); // the pool's end
        thisClass = ConstantPool.u2(classFile, at + 2);
        at += 6; // access_flags, this_class, super_class
        at += 2 + 2 * ConstantPool.u2(classFile, at); // interfaces
        at = skipFields(at);
        methods = ConstantPool.u2(classFile, at);
        at += 2;
        access = new int[methods];
        name = new int[methods];
        descriptor = new int[methods];
        codeAt = new int[methods];
        for (int m = 0; m < methods; m++) {
            access[m] = ConstantPool.u2(classFile, at);
            name[m] = ConstantPool.u2(classFile, at + 2);
            descriptor[m] = ConstantPool.u2(classFile, at + 4);
            codeAt[m] = -1;
            int attributes = ConstantPool.u2(classFile, at + 6);
            at += 8;
            for (int a = 0; a < attributes; a++) {
                if (isUtf8(ConstantPool.u2(classFile, at), "Code")) {
                    codeAt[m] = at + 6;
                }
                at = skipAttribute(at);
            }
        }
        if (at > classFile.length) {
            throw new IllegalArgumentException("the class file is cut off in its methods");
        }
    }

    /**
     * The skim of {@code classFile}.
     *
     * @throws IllegalArgumentException or {@link ArrayIndexOutOfBoundsException} when it cannot be read
     */
    static MethodSkim of(byte[] classFile) {
        return new MethodSkim(classFile, ConstantPool.u2(classFile, 8));
    }

    /** Records where each entry is; returns where the pool ends. */
    private int walk() {
        final int[] end = {10};
        ConstantPool.Visitor where = new ConstantPool.Visitor() {
            private int index = 1;

            @Override
            public boolean found(int tag, byte[] file, int at, int length) {
                entryAt[index] = at;
                tags[index] = (byte) tag;
                index += tag == ConstantPool.LONG || tag == ConstantPool.DOUBLE ? 2 : 1;
                end[0] = at + length;
                return false;
            }
        };
        if (ConstantPool.walk(classFile, where) != ConstantPool.End.ALL_VISITED) {
            throw new IllegalArgumentException("the constant pool cannot be read");
        }
        return end[0];
    }

    /** Skips the fields: each has access, name, descriptor and attributes. */
    private int skipFields(int at) {
        int count = ConstantPool.u2(classFile, at);
        at += 2;
        for (int i = 0; i < count; i++) {
            int attributes = ConstantPool.u2(classFile, at + 6);
            at += 8;
            for (int a = 0; a < attributes; a++) {
                at = skipAttribute(at);
            }
        }
        return at;
    }

    /**
     * Skips the attribute at {@code at}. One whose length is negative or runs past the file's end cannot be read: a
     * length of -6 would leave the reader where it is, and a crafted file of 65,535 such fields then kept the
     * class-loading thread here for 15 s; a large one would overflow {@code at} past the final check.
     */
    private int skipAttribute(int at) {
        int length = ConstantPool.u4(classFile, at + 2);
        if (length < 0 || length > classFile.length - at - 6) {
            throw new IllegalArgumentException("an attribute runs past the class file's end");
        }
        return at + 6 + length;
    }

    /** Where the entry {@code cpIndex} of kind {@code tag} is (after its tag). */
    int entry(int cpIndex, int tag) {
        if (cpIndex <= 0 || cpIndex >= tags.length || tags[cpIndex] != tag) {
            throw new IllegalArgumentException("constant " + cpIndex + " is not of tag " + tag);
        }
        return entryAt[cpIndex];
    }

    /** Whether the Utf8 constant {@code cpIndex} is the ASCII text {@code ascii}. */
    boolean isUtf8(int cpIndex, String ascii) {
        int at = entry(cpIndex, ConstantPool.UTF8);
        if (ConstantPool.u2(classFile, at - 2) != ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (classFile[at + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the Utf8 constants {@code a} and {@code b} hold the same text (the same bytes: modified UTF-8 is one encoding). */
    boolean sameUtf8(int a, int b) {
        if (a == b) {
            return true;
        }
        int x = entry(a, ConstantPool.UTF8);
        int y = entry(b, ConstantPool.UTF8);
        int length = ConstantPool.u2(classFile, x - 2);
        if (ConstantPool.u2(classFile, y - 2) != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (classFile[x + i] != classFile[y + i]) {
                return false;
            }
        }
        return true;
    }

    /** The Utf8 constant's text, decoded as the JVM does (modified UTF-8, which the length before it starts). */
    String utf8(int cpIndex) throws IOException {
        int at = entry(cpIndex, ConstantPool.UTF8);
        int length = ConstantPool.u2(classFile, at - 2);
        for (int i = 0; i < length; i++) {
            if (classFile[at + i] < 0) {
                return new DataInputStream(new ByteArrayInputStream(classFile, at - 2, length + 2)).readUTF();
            }
        }
        return new String(classFile, at, length, StandardCharsets.ISO_8859_1); // ASCII, the usual case: one byte a char
    }

    /** name + descriptor of method {@code m}. */
    String key(int m) throws IOException {
        return utf8(name[m]) + utf8(descriptor[m]);
    }
}
