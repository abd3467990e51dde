package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.portable.linux.EvidenceTranslatorTest.Rec;
import dev.jetw.etw.portable.linux.EvidenceTranslatorTest.Recording;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The file system calls of the traced process become FileIo records: which ones, in which order, with which
 * identities and statuses; descriptors that are not files, jetw's threads and child processes left out; a path
 * read after its descriptor was closed never names the file.
 */
class FileIoTrackerTest {

    static final int APP = 100;
    static final int JETW = 200;
    static final int CHILD = 300;
    static final long O_RDWR = 02;

    /** /proc/PID/fd as the test sets it. */
    static final class FakeDescriptors implements FileIoTracker.Descriptors {
        final Map<Integer, String> paths = new HashMap<>();

        @Override
        public String path(int fd) {
            return paths.get(fd);
        }

        @Override
        public boolean isRegularFile(int fd, String path) {
            return path.startsWith("/data/");
        }

        @Override
        public List<Integer> open() {
            return new ArrayList<>(paths.keySet());
        }
    }

    /** Every thread is the application's. */
    static FileIoTracker.Threads applicationOnly() {
        return new FileIoTracker.Threads() {
            @Override
            public boolean inProcess(int tid) {
                return true;
            }

            @Override
            public boolean isJetw(int tid, long ts) {
                return false;
            }
        };
    }

    final Recording out = new Recording();
    final FakeDescriptors fds = new FakeDescriptors();
    long now = 1;

    FileIoTracker tracker(KernelFlag... flags) {
        Set<Integer> process = new HashSet<>(List.of(APP, JETW));
        return new FileIoTracker(KernelFlagPlan.of(EnumSet.copyOf(List.of(flags))), new FileRecordQueue(out),
                fds, new FileIoTracker.Threads() {
                    @Override
                    public boolean inProcess(int tid) {
                        return process.contains(tid);
                    }

                    @Override
                    public boolean isJetw(int tid, long ts) {
                        return tid == JETW;
                    }
                }, () -> now);
    }

    static List<Rec> fileIo(Recording r) {
        List<Rec> l = new ArrayList<>();
        for (Rec x : r.records) {
            if (x.group == FileIoPayloads.GROUP_FILE_IO) {
                l.add(x);
            }
        }
        return l;
    }

    static String types(List<Rec> l) {
        StringBuilder b = new StringBuilder();
        for (Rec r : l) {
            b.append(b.length() == 0 ? "" : " ").append(r.type).append('@').append(r.ns);
        }
        return b.toString();
    }

    static String utf16(Rec r, int from) {
        byte[] b = new byte[r.payload.capacity() - from - 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = r.payload.get(from + i);
        }
        return new String(b, StandardCharsets.UTF_16LE);
    }

    @Test
    void anOpenReadFsyncAndCloseOfAFileBecomeItsFileIoRecordsPairedByIrp() {
        FileIoTracker t = tracker(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT);
        t.enter(0, 900, APP, FileSyscall.OPENAT, -1, 0, -1, O_RDWR);
        fds.paths.put(5, "/data/a.db");
        now = 1500; // the path is read when the exit is decoded, later than it happened
        t.exit(1, 1000, APP, FileSyscall.OPENAT, 5);
        assertEquals(0, fileIo(out).size(), "held until an event after the path was read shows no close came first");
        t.enter(1, 2000, APP, FileSyscall.PREAD64, 5, 4096, 8192, 0);
        t.exit(1, 2500, APP, FileSyscall.PREAD64, 4096);
        t.enter(0, 3000, APP, FileSyscall.FSYNC, 5, 0, -1, 0);
        t.exit(0, 3600, APP, FileSyscall.FSYNC, 0);
        t.enter(0, 4000, APP, FileSyscall.CLOSE, 5, 0, -1, 0);
        fds.paths.remove(5);
        t.exit(0, 4100, APP, FileSyscall.CLOSE, 0);
        t.stop(5000);

        List<Rec> r = fileIo(out);
        assertEquals("64@1000 76@1000 67@2000 76@2500 73@3000 76@3600 65@4000 76@4100 66@4100 76@4100", types(r));
        for (Rec x : r) {
            assertEquals(EtlFormat.HT_PERFINFO64, x.headerType, "FileIo has PERFINFO headers, as Windows writes it");
            assertEquals(2, x.version);
        }
        Rec create = r.get(0);
        long fileObject = create.payload.getLong(16);
        assertEquals(APP, create.payload.getLong(8), "TTID");
        assertEquals(FileIoPayloads.FILE_OPEN << 24, create.payload.getInt(24), "CreateOptions: FILE_OPEN");
        assertEquals("/data/a.db", utf16(create, 36));
        assertEquals(FileIoPayloads.FILE_OPENED, r.get(1).payload.getLong(8), "the create's OpEnd: FILE_OPENED");
        Rec read = r.get(2);
        assertEquals(8192, read.payload.getLong(0), "pread64's offset");
        assertEquals(fileObject, read.payload.getLong(24));
        assertEquals(4096, read.payload.getInt(40), "IoSize asked");
        assertEquals(4096, r.get(3).payload.getLong(8), "OpEnd's ExtraInfo: the bytes read");
        assertEquals(0, r.get(3).payload.getInt(16), "STATUS_SUCCESS");
        for (int i = 0; i < r.size(); i += 2) {
            long irp = r.get(i).payload.getLong(r.get(i).type == FileIoPayloads.READ ? 8 : 0); // ReadWrite: after Offset
            assertEquals(irp, r.get(i + 1).payload.getLong(0), "each operation's OpEnd has its IrpPtr: " + types(r));
        }
        Set<Long> irps = new HashSet<>();
        for (int i = 1; i < r.size(); i += 2) {
            assertTrue(irps.add(r.get(i).payload.getLong(0)), "one IrpPtr per operation");
        }
        assertEquals(r.get(2).payload.getLong(32), r.get(4).payload.getLong(24), "one FileKey for the file");
    }

    @Test
    void socketsJetwsThreadsAndChildProcessesAreLeftOut() {
        FileIoTracker t = tracker(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT);
        fds.paths.put(7, "socket:[12345]");
        fds.paths.put(5, "/data/a.db");
        t.enter(0, 100, APP, FileSyscall.READ, 7, 100, -1, 0);
        t.exit(0, 200, APP, FileSyscall.READ, 100);
        t.enter(0, 300, JETW, FileSyscall.WRITE, 5, 100, -1, 0);
        t.exit(0, 400, JETW, FileSyscall.WRITE, 100);
        t.enter(0, 500, CHILD, FileSyscall.CLOSE, 5, 0, -1, 0); // a child's descriptor 5 is its own
        t.exit(0, 600, CHILD, FileSyscall.CLOSE, 0);
        now = 650;
        t.enter(0, 700, APP, FileSyscall.WRITE, 5, 10, -1, 0);
        t.exit(0, 800, APP, FileSyscall.WRITE, -28);
        t.stop(900);
        List<Rec> r = fileIo(out);
        // The application's write names the file first (FileIo/Name: a descriptor first met), fails ENOSPC, and the
        // file is still open at the end (FileRundown).
        assertEquals("0@700 68@700 76@800 36@900", types(r));
        assertEquals("/data/a.db", utf16(r.get(0), 8));
        assertEquals(FileIoTracker.CURRENT_POSITION, r.get(1).payload.getLong(0), "write(2): the current position");
        assertEquals(0, r.get(2).payload.getLong(8), "nothing written");
        assertEquals(ErrnoStatus.STATUS_DISK_FULL, r.get(2).payload.getInt(16));
        long fileKey = r.get(1).payload.getLong(32); // FileIo_ReadWrite: Offset, IrpPtr, TTID, FileObject, FileKey
        assertEquals(fileKey, r.get(0).payload.getLong(0), "FileIo/Name's pointer is the FileKey, not the FileObject");
        assertEquals(fileKey, r.get(3).payload.getLong(0), "FileRundown names the same FileKey");
    }

    /** {@code call} on {@code fd} ({@code size} asked, at the current position) by the application, returning {@code ret}. */
    static void syscall(FileIoTracker t, long from, long to, FileSyscall call, int fd, long size, long ret) {
        t.enter(0, from, APP, call, fd, size, -1, 0);
        t.exit(0, to, APP, call, ret);
    }

    /** After the stop at {@code stopAt}: one description counted in the note, and no FileIo record. */
    void assertOneDescriptorLeftOut(FileIoTracker t, long stopAt, String why) {
        t.stop(stopAt);
        assertEquals(1, t.unnamedDescriptors(), why);
        assertEquals("", types(fileIo(out)));
    }

    /** The application's open returning {@code fd} at 1000, whose path the collector reads only at {@code readAt}. */
    void openedWithPathReadLate(FileIoTracker t, int fd, String pathThen, long readAt) {
        t.enter(0, 900, APP, FileSyscall.OPENAT, -1, 0, -1, 0);
        fds.paths.put(fd, pathThen);
        now = readAt;
        t.exit(0, 1000, APP, FileSyscall.OPENAT, fd);
    }

    @Test
    void aPathReadAfterItsDescriptorWasClosedNamesNothing() {
        FileIoTracker t = tracker(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT);
        // By the time the collector reads /proc/PID/fd/6, the file was closed and 6 reopened on another file.
        openedWithPathReadLate(t, 6, "/data/other.db", 5000);
        t.enter(0, 2000, APP, FileSyscall.READ, 6, 10, -1, 0);
        t.exit(0, 2100, APP, FileSyscall.READ, 0);
        t.enter(0, 3000, APP, FileSyscall.CLOSE, 6, 0, -1, 0);
        t.exit(0, 3100, APP, FileSyscall.CLOSE, 0);
        t.enter(0, 3200, APP, FileSyscall.OPENAT, -1, 0, -1, 0);
        now = 6000;
        t.exit(0, 3300, APP, FileSyscall.OPENAT, 6);
        t.enter(0, 7000, APP, FileSyscall.READ, 6, 10, -1, 0);
        t.exit(0, 7100, APP, FileSyscall.READ, 0);
        t.stop(8000);
        List<Rec> r = fileIo(out);
        assertEquals("64@3300 76@3300 67@7000 76@7100 36@8000", types(r), "the first open's records are dropped");
        assertEquals(8, t.droppedRecords(), "Create, Read, Cleanup, Close and their 4 OpEnds: " + types(r));
        assertEquals(ErrnoStatus.STATUS_END_OF_FILE, r.get(3).payload.getInt(16), "0 bytes of 10: end of file");
    }

    @Test
    void aDescriptorWhosePathCannotBeReadIsCountedOnceNotAtEachCall() {
        FileIoTracker t = tracker(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT);
        // Descriptor 8 was opened before tracing and is gone from /proc by the time its first read is decoded.
        for (int i = 0; i < 3; i++) {
            t.enter(0, 100 + 100 * i, APP, FileSyscall.READ, 8, 10, -1, 0);
            t.exit(0, 150 + 100 * i, APP, FileSyscall.READ, 10);
        }
        syscall(t, 500, 550, FileSyscall.CLOSE, 8, 0, 0);
        syscall(t, 600, 650, FileSyscall.READ, -1, 10, -9); // EBADF: no descriptor, nothing left out
        assertOneDescriptorLeftOut(t, 700, "one description left out, whatever the calls on it");
    }

    @Test
    void aFilesDescriptorReusedByASocketBeforeItsPathWasReadIsCounted() {
        FileIoTracker t = tracker(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT);
        // The file opened at 1000 was closed at 2000 and 6 became a socket before the collector read its path.
        openedWithPathReadLate(t, 6, "socket:[42]", 5000);
        syscall(t, 2000, 2100, FileSyscall.CLOSE, 6, 0, 0);
        syscall(t, 6000, 6100, FileSyscall.READ, 6, 10, 10); // the socket, met afterwards: a non-file, not counted
        syscall(t, 7000, 7100, FileSyscall.CLOSE, 6, 0, 0);
        assertOneDescriptorLeftOut(t, 8000, "the open's description is left out and counted");
    }

    @Test
    void stopLeavesTheTrackerAloneWhileTheFilePollerStillRuns() {
        FileIoTracker t = tracker(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT);
        fds.paths.put(5, "/data/a.db");
        now = 5000; // the path is read later than the write: the records are held
        syscall(t, 100, 200, FileSyscall.WRITE, 5, 10, 10);
        LinuxKernelCollector.stopFiles(t, false, out);
        assertEquals("", types(fileIo(out)), "the poller's tracker is not touched by the stopping thread");
        assertEquals(1, out.notices.size());
        assertTrue(out.notices.get(0).text().contains("file poller did not end"), out.notices.get(0).text());
        LinuxKernelCollector.stopFiles(t, true, out);
        assertEquals("0@100 68@100 76@200 36@", types(fileIo(out)).replaceAll("36@\\d+$", "36@"),
                "once it ended: the held records, then the FileRundown");
    }

    @Test
    void heldRecordsGoOutAtThePollersWatermarkWithoutAnotherSystemCall() {
        FileIoTracker t = tracker(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT);
        List<Long> until = new ArrayList<>();
        TimeOrderedPages pages = new TimeOrderedPages(4096, null, null, () -> { }, ts -> {
            until.add(ts);
            t.decodedUntil(ts);
        });
        // The path was read at 1.5 ms; then the process does no more system calls.
        openedWithPathReadLate(t, 5, "/data/a.db", 1_500_000);
        pages.passDone(2_400_000); // every CPU seen empty at 2.4 ms: all up to 1.4 ms (less the margin) was decoded
        assertEquals(List.of(2_400_000L - TimeOrderedPages.MARGIN_NANOS), until);
        assertEquals("", types(fileIo(out)), "1.4 ms is before the path was read: still held");
        pages.passDone(2_600_000);
        assertEquals("64@1000 76@1000", types(fileIo(out)), "released by the next pass's watermark alone");
    }

    @Test
    void fileIoAloneWritesTheCompletionsAndFileIoInitAloneTheOperations() {
        for (KernelFlag flag : new KernelFlag[] {KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT}) {
            Recording r = new Recording();
            FakeDescriptors d = new FakeDescriptors();
            d.paths.put(5, "/data/a.db");
            FileIoTracker t = new FileIoTracker(KernelFlagPlan.of(EnumSet.of(flag)), new FileRecordQueue(r), d,
                    applicationOnly(), () -> 1L);
            t.rundown(1);
            t.applyHandedOver();
            t.enter(0, 10, APP, FileSyscall.FDATASYNC, 5, 0, -1, 0);
            t.exit(0, 20, APP, FileSyscall.FDATASYNC, 0);
            t.stop(30);
            assertEquals(flag == KernelFlag.FILE_IO ? "0@1 76@20 36@30" : "0@1 73@10 36@30", types(fileIo(r)),
                    "names come with either flag; " + flag);
        }
    }
}
