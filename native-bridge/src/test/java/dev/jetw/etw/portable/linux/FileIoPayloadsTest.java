package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * FileIo payloads against Microsoft's MOF pages, field by field (order, sizes; every "Pointer" field, TTID
 * included, 8 bytes in a 64-bit record), written out here independently of {@link FileIoPayloads}.
 */
class FileIoPayloadsTest {

    static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    static byte[] bytes(ByteBuffer b, int n) {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = b.get(i);
        }
        return out;
    }

    @Test
    void readWriteIsOffsetIrpPtrTtidFileObjectFileKeyIoSizeIoFlags() {
        ByteBuffer b = le(64);
        int n = FileIoPayloads.readWrite(b, 0x1122334455667788L, 0xFFFFF1E000000007L, 4242, 0xFFFFF0F000000003L,
                0xFFFFF0E000000002L, 65536, 0);
        // FileIo_ReadWrite: uint64 Offset; IrpPtr, TTID, FileObject, FileKey (Pointer); uint32 IoSize, IoFlags.
        byte[] expected = le(48).putLong(0x1122334455667788L).putLong(0xFFFFF1E000000007L).putLong(4242L)
                .putLong(0xFFFFF0F000000003L).putLong(0xFFFFF0E000000002L).putInt(65536).putInt(0).array();
        assertEquals(48, n);
        assertArrayEquals(expected, bytes(b, n));
    }

    @Test
    void simpleOpIsIrpPtrTtidFileObjectFileKey() {
        ByteBuffer b = le(64);
        int n = FileIoPayloads.simpleOp(b, 9L, 77, 0xF0L, 0xE0L);
        assertEquals(32, n);
        assertArrayEquals(le(32).putLong(9L).putLong(77L).putLong(0xF0L).putLong(0xE0L).array(), bytes(b, n));
    }

    @Test
    void opEndIsIrpPtrExtraInfoNtStatus() {
        ByteBuffer b = le(64);
        int n = FileIoPayloads.opEnd(b, 9L, 4096L, 0xC0000011);
        assertEquals(20, n);
        assertArrayEquals(le(20).putLong(9L).putLong(4096L).putInt(0xC0000011).array(), bytes(b, n));
    }

    @Test
    void createIsIrpPtrTtidFileObjectOptionsAttributesShareAndTheUtf16Path() {
        byte[] p = FileIoPayloads.create(9L, 77, 0xF0L, FileIoPayloads.createOptions(0100 | 02), 0, 7, "/tmp/a.db");
        byte[] path = "/tmp/a.db\0".getBytes(StandardCharsets.UTF_16LE);
        ByteBuffer expected = le(36 + path.length).putLong(9L).putLong(77L).putLong(0xF0L)
                .putInt(FileIoPayloads.FILE_OPEN_IF << 24).putInt(0).putInt(7).put(path);
        assertArrayEquals(expected.array(), p);
    }

    @Test
    void nameIsFileKeyAndTheUtf16Name() {
        byte[] p = FileIoPayloads.name(0xF0L, "/x");
        assertArrayEquals(le(8 + 6).putLong(0xF0L).put("/x\0".getBytes(StandardCharsets.UTF_16LE)).array(), p);
    }

    @Test
    void openFlagsBecomeTheCreateDispositionInTheHighByte() {
        assertEquals(1 << 24, FileIoPayloads.createOptions(0), "O_RDONLY: FILE_OPEN");
        assertEquals(3 << 24, FileIoPayloads.createOptions(0100 | 01), "O_CREAT: FILE_OPEN_IF");
        assertEquals(2 << 24, FileIoPayloads.createOptions(0100 | 0200 | 01), "O_CREAT|O_EXCL: FILE_CREATE");
        assertEquals(5 << 24, FileIoPayloads.createOptions(0100 | 01000 | 01), "O_CREAT|O_TRUNC: FILE_OVERWRITE_IF");
        assertEquals(FileIoPayloads.FILE_CREATED, FileIoPayloads.createInformation(0100 | 0200));
        assertEquals(FileIoPayloads.FILE_OPENED, FileIoPayloads.createInformation(0100));
    }
}
