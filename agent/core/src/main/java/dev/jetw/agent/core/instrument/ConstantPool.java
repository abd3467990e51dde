package dev.jetw.agent.core.instrument;

/**
 * Walks a class file's constant pool (JVMS 4.4) entry by entry, for the tests that look at a class before Byte Buddy
 * does: the annotation a class may be selected by ({@link SelectableClasses}), NaN constants
 * ({@link NanConstantGuard}). Each entry is handed over as its tag and where its bytes are; nothing is copied.
 */
final class ConstantPool {

    /** How a walk ended. */
    enum End {
        /** The visitor found what it looked for. */
        FOUND,
        /** Every entry was visited. */
        ALL_VISITED,
        /** A tag this walk does not know (a newer class file) or a cut-off file: the rest cannot be read. */
        UNREADABLE
    }

    /** One entry: its {@code tag}; its bytes in {@code classFile} from {@code at}, {@code length} long (a Utf8's text alone). */
    interface Visitor {
        /** True when this entry is what the walk looks for (it then ends). */
        boolean found(int tag, byte[] classFile, int at, int length);
    }

    static final int UTF8 = 1;
    static final int FLOAT = 4;
    static final int LONG = 5;
    static final int DOUBLE = 6;

    /** Size in bytes after the tag of each entry kind but Utf8; 0 for an unknown tag. */
    private static final int[] ENTRY_SIZES = new int[256];

    static {
        ENTRY_SIZES[3] = 4;  // Integer
        ENTRY_SIZES[FLOAT] = 4;
        ENTRY_SIZES[LONG] = 8;
        ENTRY_SIZES[DOUBLE] = 8;
        ENTRY_SIZES[7] = 2;  // Class
        ENTRY_SIZES[8] = 2;  // String
        ENTRY_SIZES[9] = 4;  // Fieldref
        ENTRY_SIZES[10] = 4; // Methodref
        ENTRY_SIZES[11] = 4; // InterfaceMethodref
        ENTRY_SIZES[12] = 4; // NameAndType
        ENTRY_SIZES[15] = 3; // MethodHandle
        ENTRY_SIZES[16] = 2; // MethodType
        ENTRY_SIZES[17] = 4; // Dynamic
        ENTRY_SIZES[18] = 4; // InvokeDynamic
        ENTRY_SIZES[19] = 2; // Module
        ENTRY_SIZES[20] = 2; // Package
    }

    private ConstantPool() {
    }

    static End walk(byte[] classFile, Visitor visitor) {
        try {
            int count = u2(classFile, 8);
            int at = 10;
            for (int index = 1; index < count; index++) {
                int tag = classFile[at] & 0xFF;
                int length = tag == UTF8 ? u2(classFile, at + 1) : ENTRY_SIZES[tag];
                int start = tag == UTF8 ? at + 3 : at + 1;
                if (length == 0 && tag != UTF8 || start + length > classFile.length) {
                    return End.UNREADABLE;
                }
                if (visitor.found(tag, classFile, start, length)) {
                    return End.FOUND;
                }
                at = start + length;
                if (tag == LONG || tag == DOUBLE) {
                    index++; // they take two slots
                }
            }
            return End.ALL_VISITED;
        } catch (ArrayIndexOutOfBoundsException e) {
            return End.UNREADABLE;
        }
    }

    static int u2(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    static int u4(byte[] b, int at) {
        return u2(b, at) << 16 | u2(b, at + 2);
    }
}
