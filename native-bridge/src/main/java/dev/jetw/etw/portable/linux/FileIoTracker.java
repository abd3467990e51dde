package dev.jetw.etw.portable.linux;

import dev.jetw.etw.portable.linux.FileRecordQueue.OpenFile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

/**
 * Turns the traced JVM's file system calls (entries and exits, in time order) into FileIo records
 * (docs/linux-kernel-events.md, "File I/O"): it keeps the process's descriptor table (regular files only), the
 * call each thread is in, and the synthetic Windows identities:
 * <ul>
 * <li>FileObject: one per open file description this collection saw (an open, or a descriptor first met);</li>
 * <li>FileKey: one per path (Windows' FileKey is the file's, shared by its opens);</li>
 * <li>IrpPtr: one per operation, so that OpEnd pairs with its Create, Read, Write, Flush, Cleanup or Close.</li>
 * </ul>
 * Records: with {@code file_io_init}, Read/Write/Flush/Cleanup at the call's entry (on its CPU), Close and Create
 * at its return (a path is known only once open returned: readlink of /proc/PID/fd/N); with {@code file_io},
 * OpEnd at the return with the bytes transferred and the NTSTATUS of {@link ErrnoStatus}. Names: FileIo/Name
 * for each file open at start or first met through a descriptor, FileRundown at stop for those still open, as
 * Windows writes them. Descriptors that are not regular files (sockets, pipes, eventfds, /proc and /sys files,
 * devices) are left out, and so are jetw's own threads' calls. The records wait in a {@link FileRecordQueue}
 * until their file's path is confirmed. Runs on the file poller's thread (and at stop, after it ended).
 */
final class FileIoTracker {

    /** Where a descriptor leads, and whether it is a file on a file system (read through /proc in production). */
    interface Descriptors {
        /** The path {@code fd} of the traced process names now, or null (closed, or not a path). */
        String path(int fd);

        /**
         * Whether {@code fd}, which names {@code path}, is a regular file on a disk-backed or memory file system
         * (not /proc, /sys, a device, a socket or a pipe); asked right after {@link #path}.
         */
        boolean isRegularFile(int fd, String path);

        /** The descriptors open now. */
        List<Integer> open();
    }

    /**
     * Whose calls these are. A child process (followed by the kernel's event-fork) has descriptors of its own: its
     * calls are ignored. jetw's own threads (JetwThreads) share the process's descriptors: their opens and closes
     * keep the table right, but none of their calls is written.
     */
    interface Threads {
        /** A thread of the traced process. */
        boolean inProcess(int tid);

        /** One of jetw's threads at {@code ts} (the record's time: a thread id may be reused after its thread ended). */
        boolean isJetw(int tid, long ts);
    }

    /** "Use the file's current position": FILE_USE_FILE_POINTER_POSITION (-2) as Windows' 64-bit offset. */
    static final long CURRENT_POSITION = 0xFFFFFFFFFFFFFFFEL;
    static final long IRP_BASE = 0xFFFFF1E000000000L;
    static final long FILE_OBJECT_BASE = 0xFFFFF0F000000000L;
    static final long FILE_KEY_BASE = 0xFFFFF0E000000000L;

    /**
     * A descriptor whose path could not be read (closed first), until it is closed or reopened: counted once in
     * {@link #unresolved}, not at each later call on it.
     */
    private static final OpenFile UNRESOLVED = new OpenFile(0, 0, null, Long.MIN_VALUE);

    /** The call a thread is in. */
    private static final class InFlight {
        FileSyscall call;
        OpenFile file;
        long irp;
        long size;
        long flags;
        boolean recorded;
    }

    private final KernelFlagPlan plan;
    private final FileRecordQueue out;
    private final Descriptors descriptors;
    private final Threads threads;
    private final LongSupplier clock;
    private final Map<Integer, OpenFile> fds = new HashMap<Integer, OpenFile>();
    private final Map<Integer, InFlight> inFlight = new HashMap<Integer, InFlight>();
    private final Map<String, Long> fileKeys = new HashMap<String, Long>();
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<Runnable>();
    private long irps;
    private long fileObjects;
    /**
     * Descriptors closed before the collector could read their path: their operations are not written. Counted
     * once each: when the readlink fails, or when a descriptor found not to be a file turns out closed before its
     * path was read (the number may then have been reused by a socket or pipe after a file's open).
     */
    long unresolved;

    /** {@code clock}: when a path is read, on the records' clock (System.nanoTime, as trace_clock=mono). */
    FileIoTracker(KernelFlagPlan plan, FileRecordQueue out, Descriptors descriptors, Threads threads, LongSupplier clock) {
        this.plan = plan;
        this.out = out;
        this.descriptors = descriptors;
        this.threads = threads;
        this.clock = clock;
    }

    /** The files open when tracing began: FileIo/Name each, at {@code nanoTime}; applied on the poller's thread. */
    void rundown(long nanoTime) {
        pending.add(() -> {
            for (int fd : descriptors.open()) {
                resolve(fd, 0, nanoTime);
            }
        });
    }

    /** Applies what the starting thread handed over: called on the poller before each batch. */
    void applyHandedOver() {
        for (Runnable r = pending.poll(); r != null; r = pending.poll()) {
            r.run();
        }
    }

    /** From now on nothing is written: the collection failed to start. */
    void discard() {
        out.discard();
    }

    /** Records written so far. */
    long records() {
        return out.records.get();
    }

    /** Descriptors whose path could not be read (closed first): their operations are not written. */
    long unnamedDescriptors() {
        return unresolved;
    }

    /** Records not written: their file's path was read after its descriptor was closed, so it may be another's. */
    long droppedRecords() {
        return out.dropped;
    }

    /**
     * Every event up to {@code ts} has been decoded (the poller's watermark, after a pass): held records whose file's
     * path was read before it go out, though no system call follows (an idle process).
     */
    void decodedUntil(long ts) {
        out.release(ts);
    }

    /** sys_enter_*: {@code fd} -1 for the opens; {@code offset} -1 when the call names none. */
    void enter(int cpu, long ts, int tid, FileSyscall call, int fd, long size, long offset, long openFlags) {
        out.release(ts);
        if (!threads.inProcess(tid)) {
            return;
        }
        InFlight c = inFlight.get(tid);
        if (c == null) {
            c = new InFlight();
            inFlight.put(tid, c);
        }
        c.call = call;
        c.size = size;
        c.flags = openFlags;
        c.file = null;
        c.recorded = !threads.isJetw(tid, ts);
        c.irp = nextIrp();
        if (call.op == FileSyscall.Op.OPEN) {
            return;
        }
        OpenFile f = fds.get(fd);
        if (f == null && call.op != FileSyscall.Op.CLOSE) {
            f = resolve(fd, cpu, ts, c.recorded); // jetw's thread: named when an application thread uses it, if ever
        }
        if (call.op == FileSyscall.Op.CLOSE) {
            fds.remove(fd); // released now: another thread's open may get the number before this call returns
            if (f != null && f != UNRESOLVED && !f.confirmed && ts < f.resolvedAt) {
                // Closed before its path was read: the path read may be a later open's.
                if (isFile(f)) {
                    f.doubtful = true;
                } else {
                    unresolved++; // what it named is unknown: the non-file read may be the number's next use
                }
            }
        }
        if (!isFile(f) || !c.recorded) {
            return;
        }
        c.file = f;
        if (!f.named) {
            f.named = true;
            out.name(cpu, ts, FileIoPayloads.NAME, f);
        }
        if (!plan.fileIoInit) {
            return;
        }
        switch (call.op) {
            case READ:
            case WRITE:
                out.readWrite(cpu, ts, call.op == FileSyscall.Op.READ ? FileIoPayloads.READ : FileIoPayloads.WRITE, f,
                        c.irp, tid, call.positional ? offset : CURRENT_POSITION, size);
                break;
            case FLUSH:
                out.simpleOp(cpu, ts, FileIoPayloads.FLUSH, f, c.irp, tid);
                break;
            default: // CLOSE: the last handle goes (Cleanup); Close follows at the return
                out.simpleOp(cpu, ts, FileIoPayloads.CLEANUP, f, c.irp, tid);
                break;
        }
    }

    /** sys_exit_*: {@code ret} is the call's return value (negative: -errno). */
    void exit(int cpu, long ts, int tid, FileSyscall call, long ret) {
        out.release(ts);
        InFlight c = inFlight.get(tid);
        if (c == null || c.call != call) {
            return; // its entry was before tracing began, lost, or another process's
        }
        c.call = null;
        if (call.op == FileSyscall.Op.OPEN) {
            opened(cpu, ts, tid, c, ret);
            return;
        }
        OpenFile f = c.file;
        if (f == null) {
            return;
        }
        if (call.op == FileSyscall.Op.CLOSE) {
            opEnd(cpu, ts, f, c.irp, 0, ErrnoStatus.of(ret)); // the Cleanup's
            long closeIrp = nextIrp();
            if (plan.fileIoInit) {
                out.simpleOp(cpu, ts, FileIoPayloads.CLOSE, f, closeIrp, tid);
            }
            opEnd(cpu, ts, f, closeIrp, 0, ErrnoStatus.STATUS_SUCCESS); // the description goes whatever close said
            return;
        }
        int status = ErrnoStatus.of(ret);
        if (ret == 0 && call.op == FileSyscall.Op.READ && c.size > 0) {
            status = ErrnoStatus.STATUS_END_OF_FILE; // as Windows completes a read at the end of a file
        }
        opEnd(cpu, ts, f, c.irp, call.op == FileSyscall.Op.FLUSH ? 0 : Math.max(0, ret), status);
    }

    private void opened(int cpu, long ts, int tid, InFlight c, long ret) {
        if (ret < 0) {
            return; // no descriptor, so no path to read: a failed open is not written
        }
        int fd = (int) ret;
        fds.remove(fd);
        OpenFile f = resolve(fd, cpu, ts, false);
        if (!isFile(f) || !c.recorded) {
            return; // jetw's own open: named when an application thread uses it, if ever
        }
        if (plan.fileIoInit) {
            f.named = true;
            out.create(cpu, ts, f, c.irp, tid, c.flags);
        }
        opEnd(cpu, ts, f, c.irp, FileIoPayloads.createInformation(c.flags), ErrnoStatus.STATUS_SUCCESS);
    }

    /** A descriptor met for the first time: its path now, and FileIo/Name when it is a regular file. */
    private OpenFile resolve(int fd, int cpu, long ts) {
        return resolve(fd, cpu, ts, true);
    }

    private OpenFile resolve(int fd, int cpu, long ts, boolean named) {
        if (fd < 0) {
            return null; // a call on no descriptor (it fails EBADF): nothing to name, nothing left out
        }
        long at = clock.getAsLong();
        String path = descriptors.path(fd);
        if (path == null) {
            unresolved++;
            fds.put(fd, UNRESOLVED);
            return UNRESOLVED;
        }
        if (!descriptors.isRegularFile(fd, path)) {
            OpenFile notAFile = new OpenFile(0, 0, null, at); // its own: a close before `at` is counted
            fds.put(fd, notAFile);
            return notAFile;
        }
        OpenFile f = new OpenFile(nextFileObject(), fileKey(path), path, at);
        fds.put(fd, f);
        if (named) {
            f.named = true;
            out.name(cpu, ts, FileIoPayloads.NAME, f);
        }
        return f;
    }

    /** At stop, after the last pass: what is held goes out, then FileRundown for every file still open. */
    void stop(long nanoTime) {
        applyHandedOver();
        out.flush();
        List<OpenFile> open = new ArrayList<OpenFile>();
        for (OpenFile f : fds.values()) {
            if (isFile(f) && !f.doubtful) {
                open.add(f);
            }
        }
        for (OpenFile f : open) {
            out.name(0, nanoTime, FileIoPayloads.FILE_RUNDOWN, f);
        }
        out.flush();
    }

    /** A regular file's description (not a descriptor left out: unresolved, or not a file). */
    private static boolean isFile(OpenFile f) {
        return f != null && f.path != null;
    }

    private void opEnd(int cpu, long ts, OpenFile f, long irp, long extraInfo, int status) {
        if (plan.fileIo) {
            out.opEnd(cpu, ts, f, irp, extraInfo, status);
        }
    }

    private long nextIrp() {
        return IRP_BASE | ++irps;
    }

    private long nextFileObject() {
        return FILE_OBJECT_BASE | ++fileObjects;
    }

    private long fileKey(String path) {
        Long k = fileKeys.get(path);
        if (k == null) {
            k = FILE_KEY_BASE | (fileKeys.size() + 1);
            fileKeys.put(path, k);
        }
        return k;
    }
}
