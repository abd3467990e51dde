package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The payloads of the FileIo class (group 0x04, GUID 90cbdc39-4a3e-11d1-84f4-0000f80464e3, version 2) as
 * Microsoft's MOF pages lay them out for 64-bit records: FileIo_Name, FileIo_Create, FileIo_ReadWrite,
 * FileIo_SimpleOp, FileIo_OpEnd. Every field the pages mark "Pointer" is 8 bytes, TTID included (the pages give
 * it the Pointer qualifier; the reader's KernelDecoder reads it so). Little-endian, no padding. The fixed
 * layouts fill {@code b} from position 0 and return the length (no allocation on the per-operation path); the
 * two with a string allocate (one per file opened).
 */
final class FileIoPayloads {

    static final int GROUP_FILE_IO = 0x04;
    /** The version Microsoft's pages give the FileIo classes (EventVersion(2)). */
    static final int VERSION = 2;

    static final int NAME = 0;
    static final int FILE_RUNDOWN = 36;
    static final int CREATE = 64;
    static final int CLEANUP = 65;
    static final int CLOSE = 66;
    static final int READ = 67;
    static final int WRITE = 68;
    static final int FLUSH = 73;
    static final int OP_END = 76;

    /** FileIo_ReadWrite: 48 bytes. */
    static final int READ_WRITE_SIZE = 48;
    /** FileIo_SimpleOp: 32 bytes. */
    static final int SIMPLE_OP_SIZE = 32;
    /** FileIo_OpEnd: 20 bytes. */
    static final int OP_END_SIZE = 20;

    /** CreateOptions' high byte is the CreateDisposition (wdm.h): FILE_OPEN 1, FILE_CREATE 2, FILE_OPEN_IF 3, FILE_OVERWRITE_IF 5. */
    static final int FILE_OPEN = 1;
    static final int FILE_CREATE = 2;
    static final int FILE_OPEN_IF = 3;
    static final int FILE_OVERWRITE_IF = 5;
    /** FILE_SHARE_READ | WRITE | DELETE: Linux has no share modes, so every open shares everything. */
    static final int SHARE_ALL = 7;
    /** OpEnd's ExtraInfo of a create (IO_STATUS_BLOCK.Information): FILE_OPENED 1; FILE_CREATED 2 for O_CREAT|O_EXCL. */
    static final int FILE_OPENED = 1;
    static final int FILE_CREATED = 2;

    private static final int O_CREAT = 0100;
    private static final int O_EXCL = 0200;
    private static final int O_TRUNC = 01000;

    private FileIoPayloads() {
    }

    /** FileIo_ReadWrite (Read 67, Write 68): Offset, IrpPtr, TTID, FileObject, FileKey, IoSize, IoFlags. */
    static int readWrite(ByteBuffer b, long offset, long irp, int tid, long fileObject, long fileKey, int ioSize,
                         int ioFlags) {
        b.putLong(0, offset).putLong(8, irp).putLong(16, tid & 0xFFFFFFFFL).putLong(24, fileObject).putLong(32, fileKey);
        b.putInt(40, ioSize).putInt(44, ioFlags);
        return READ_WRITE_SIZE;
    }

    /** FileIo_SimpleOp (Cleanup 65, Close 66, Flush 73): IrpPtr, TTID, FileObject, FileKey. */
    static int simpleOp(ByteBuffer b, long irp, int tid, long fileObject, long fileKey) {
        b.putLong(0, irp).putLong(8, tid & 0xFFFFFFFFL).putLong(16, fileObject).putLong(24, fileKey);
        return SIMPLE_OP_SIZE;
    }

    /** FileIo_OpEnd (76): IrpPtr, ExtraInfo (bytes transferred, or a create's FILE_OPENED/FILE_CREATED), NtStatus. */
    static int opEnd(ByteBuffer b, long irp, long extraInfo, int ntStatus) {
        b.putLong(0, irp).putLong(8, extraInfo).putInt(16, ntStatus);
        return OP_END_SIZE;
    }

    /** FileIo_Create (64): IrpPtr, TTID, FileObject, CreateOptions, FileAttributes, ShareAccess, OpenPath (UTF-16). */
    static byte[] create(long irp, int tid, long fileObject, int createOptions, int fileAttributes, int shareAccess,
                         String openPath) {
        byte[] path = utf16z(openPath);
        ByteBuffer b = ByteBuffer.allocate(24 + 12 + path.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(irp).putLong(tid & 0xFFFFFFFFL).putLong(fileObject);
        b.putInt(createOptions).putInt(fileAttributes).putInt(shareAccess).put(path);
        return b.array();
    }

    /**
     * FileIo_Name (Name 0, FileRundown 36): FileKey, FileName (UTF-16). The pointer is the file's key, not an open's
     * object: readers (TraceEvent's FileIONameTraceData, jetw's why) index names by FileKey.
     */
    static byte[] name(long fileKey, String fileName) {
        byte[] name = utf16z(fileName);
        ByteBuffer b = ByteBuffer.allocate(8 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(fileKey).put(name);
        return b.array();
    }

    /** CreateOptions for open(2) flags: the disposition in the high byte (no FILE_* option bits: Linux has none). */
    static int createOptions(long openFlags) {
        int disposition;
        if ((openFlags & O_CREAT) != 0 && (openFlags & O_EXCL) != 0) {
            disposition = FILE_CREATE;
        } else if ((openFlags & O_CREAT) != 0) {
            disposition = (openFlags & O_TRUNC) != 0 ? FILE_OVERWRITE_IF : FILE_OPEN_IF;
        } else {
            disposition = FILE_OPEN;
        }
        return disposition << 24;
    }

    /** OpEnd's ExtraInfo for a successful open with these flags. */
    static int createInformation(long openFlags) {
        return (openFlags & O_CREAT) != 0 && (openFlags & O_EXCL) != 0 ? FILE_CREATED : FILE_OPENED;
    }

    private static byte[] utf16z(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_16LE);
        byte[] z = new byte[b.length + 2];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }
}
