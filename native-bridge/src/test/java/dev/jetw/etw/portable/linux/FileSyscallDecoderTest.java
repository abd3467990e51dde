package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.portable.linux.EvidenceTranslatorTest.Rec;
import dev.jetw.etw.portable.linux.EvidenceTranslatorTest.Recording;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The syscall tracepoints of Linux 6.18 (their format files, verbatim: test resources tracefs/linux-6.18) decoded
 * into the tracker's calls: records laid out at the formats' offsets, as the kernel writes them.
 */
class FileSyscallDecoderTest {

    static EventFormat format(String name) throws Exception {
        return TracepointDecodingTest.format("syscalls", name);
    }

    /** A record of {@code f} by {@code tid} with the given fields (by name) set. */
    static ByteBuffer record(EventFormat f, int tid, Object... fields) {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) f.id);
        b.putInt(f.field("common_pid").offset, tid);
        for (int i = 0; i < fields.length; i += 2) {
            EventFormat.Field x = f.field((String) fields[i]);
            long v = ((Number) fields[i + 1]).longValue();
            if (x.size == 8) {
                b.putLong(x.offset, v);
            } else {
                b.putInt(x.offset, (int) v);
            }
        }
        return b;
    }

    @Test
    void openatPreadvFsyncAndCloseOfLinux618() throws Exception {
        Recording out = new Recording();
        FileIoTrackerTest.FakeDescriptors fds = new FileIoTrackerTest.FakeDescriptors();
        fds.paths.put(9, "/data/b.db");
        FileIoTracker t = new FileIoTracker(KernelFlagPlan.of(EnumSet.of(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT)),
                new FileRecordQueue(out), fds, FileIoTrackerTest.applicationOnly(), () -> 0L);
        FileSyscallDecoder d = new FileSyscallDecoder(t, new TracepointDecodingTest.Rendering(new java.util.ArrayList<>(), null));
        for (FileSyscall c : new FileSyscall[] {FileSyscall.OPENAT, FileSyscall.PREADV, FileSyscall.FSYNC,
            FileSyscall.CLOSE}) {
            d.learn(c, format("sys_enter_" + c.name), format("sys_exit_" + c.name));
        }
        d.record(0, 10, record(format("sys_enter_openat"), 42, "dfd", -100, "filename", 0x7f0000001000L, "flags",
                0100 | 02, "mode", 0644), 0, 48);
        d.record(0, 20, record(format("sys_exit_openat"), 42, "ret", 9), 0, 24);
        d.record(1, 30, record(format("sys_enter_preadv"), 42, "fd", 9, "vec", 0x7f0000002000L, "vlen", 2, "pos_l",
                1L << 33, "pos_h", 0), 0, 56);
        d.record(1, 40, record(format("sys_exit_preadv"), 42, "ret", 8192), 0, 24);
        d.record(1, 50, record(format("sys_enter_fsync"), 42, "fd", 9), 0, 24);
        d.record(0, 60, record(format("sys_exit_fsync"), 42, "ret", -5), 0, 24);
        d.record(0, 70, record(format("sys_enter_close"), 42, "fd", 9), 0, 24);
        d.record(0, 80, record(format("sys_exit_close"), 42, "ret", 0), 0, 24);
        t.stop(90);
        assertEquals(8, d.handlers.decoded);
        List<Rec> r = FileIoTrackerTest.fileIo(out);
        assertEquals("64@20 76@20 67@30 76@40 73@50 76@60 65@70 76@80 66@80 76@80", FileIoTrackerTest.types(r));
        assertEquals(FileIoPayloads.FILE_OPEN_IF << 24, r.get(0).payload.getInt(24), "O_CREAT|O_RDWR: FILE_OPEN_IF");
        assertEquals(1L << 33, r.get(2).payload.getLong(0), "preadv's pos_l");
        assertEquals(42, r.get(2).payload.getLong(16), "TTID: common_pid");
        assertEquals(1, r.get(2).cpu, "the entry's CPU");
        assertEquals(8192, r.get(3).payload.getLong(8));
        assertEquals(ErrnoStatus.STATUS_IO_DEVICE_ERROR, r.get(5).payload.getInt(16), "fsync's EIO");
        assertEquals(0, r.get(5).cpu, "the exit's CPU");
    }
}
