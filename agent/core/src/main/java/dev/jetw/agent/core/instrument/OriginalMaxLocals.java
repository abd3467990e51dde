package dev.jetw.agent.core.instrument;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code max_locals} of every method with code in a class file, read before it is woven: the
 * {@link LinkedCallWeaver} puts its own locals above the method's, so it needs the count at the method's first
 * instruction, where ASM has not yet reached {@code visitMaxs}. A skim (JVMS 4.1, 4.6, 4.7.3): the constant
 * pool by {@link ConstantPool#walk}, then each method's name, descriptor and Code attribute's header; no
 * instruction is read, and only the names of methods are decoded.
 */
final class OriginalMaxLocals {

    private OriginalMaxLocals() {
    }

    /** name + descriptor of each method with a Code attribute to its max_locals; empty when the file cannot be read. */
    static Map<String, Integer> of(byte[] classFile) {
        try {
            Utf8Offsets utf8 = new Utf8Offsets(ConstantPool.u2(classFile, 8));
            if (ConstantPool.walk(classFile, utf8) != ConstantPool.End.ALL_VISITED) {
                return Collections.emptyMap();
            }
            int at = utf8.end + 6; // access_flags, this_class, super_class
            at += 2 + 2 * ConstantPool.u2(classFile, at); // interfaces
            at = skipMembers(classFile, at);
            int methods = ConstantPool.u2(classFile, at);
            at += 2;
            Map<String, Integer> maxLocals = new HashMap<>(methods * 2);
            for (int m = 0; m < methods; m++) {
                int name = ConstantPool.u2(classFile, at + 2);
                int descriptor = ConstantPool.u2(classFile, at + 4);
                int attributes = ConstantPool.u2(classFile, at + 6);
                at += 8;
                for (int a = 0; a < attributes; a++) {
                    int length = ConstantPool.u4(classFile, at + 2);
                    if (utf8.is(classFile, ConstantPool.u2(classFile, at), "Code")) {
                        maxLocals.put(utf8.text(classFile, name) + utf8.text(classFile, descriptor),
                                ConstantPool.u2(classFile, at + 8)); // after max_stack
                    }
                    at += 6 + length;
                }
            }
            return maxLocals;
        } catch (ArrayIndexOutOfBoundsException | IOException | IllegalArgumentException e) {
            return Collections.emptyMap(); // a cut-off or malformed file: no method of it is woven
        }
    }

    /** Skips the fields: each has access, name, descriptor and attributes. */
    private static int skipMembers(byte[] classFile, int at) {
        int count = ConstantPool.u2(classFile, at);
        at += 2;
        for (int i = 0; i < count; i++) {
            int attributes = ConstantPool.u2(classFile, at + 6);
            at += 8;
            for (int a = 0; a < attributes; a++) {
                at += 6 + ConstantPool.u4(classFile, at + 2);
            }
        }
        return at;
    }

    /** Where each Utf8 constant's text is, by constant-pool index, and where the pool ends. */
    private static final class Utf8Offsets implements ConstantPool.Visitor {
        private final int[] textAt;
        private int index = 1;
        int end;

        Utf8Offsets(int count) {
            textAt = new int[count];
        }

        @Override
        public boolean found(int tag, byte[] classFile, int at, int length) {
            if (tag == ConstantPool.UTF8) {
                textAt[index] = at;
            }
            index += tag == ConstantPool.LONG || tag == ConstantPool.DOUBLE ? 2 : 1;
            end = at + length;
            return false;
        }

        private int at(int cpIndex) {
            int at = cpIndex > 0 && cpIndex < textAt.length ? textAt[cpIndex] : 0;
            if (at == 0) {
                throw new IllegalArgumentException("constant " + cpIndex + " is not a Utf8");
            }
            return at;
        }

        boolean is(byte[] classFile, int cpIndex, String ascii) {
            int at = at(cpIndex);
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

        /** The constant's text, decoded as the JVM does (modified UTF-8, which the length before it starts). */
        String text(byte[] classFile, int cpIndex) throws IOException {
            int at = at(cpIndex);
            int length = ConstantPool.u2(classFile, at - 2);
            for (int i = 0; i < length; i++) {
                if (classFile[at + i] < 0) {
                    return new DataInputStream(new ByteArrayInputStream(classFile, at - 2, length + 2)).readUTF();
                }
            }
            return new String(classFile, at, length, StandardCharsets.ISO_8859_1); // ASCII, the usual case: one byte a char
        }
    }
}
