package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Turns the raw records of the syscall tracepoints of {@link FileSyscall} into {@link FileIoTracker} calls:
 * each record's common_type selects the call and whether it is the entry or the exit; field offsets come from
 * the format files (nothing hard-coded). The fields used: fd, count (read, write, pread64, pwrite64), pos
 * (pread64, pwrite64), pos_l and pos_h (preadv, pwritev and their "2"), flags (open, openat), ret (every exit).
 * Allocates nothing per record.
 */
final class FileSyscallDecoder implements PageDecoder.RecordVisitor {

    /** creat(2) is open(2) with these flags: O_CREAT | O_WRONLY | O_TRUNC. */
    static final long CREAT_FLAGS = 0100 | 01 | 01000;

    private final FileIoTracker tracker;
    /** Losses go where the scheduler's go (EvidenceTranslator): one count, one gap notice per gap. */
    private final TracepointSink losses;
    final RecordHandlers handlers = new RecordHandlers();
    private EventFormat.Field commonPid;

    FileSyscallDecoder(FileIoTracker tracker, TracepointSink losses) {
        this.tracker = tracker;
        this.losses = losses;
    }

    /** Learns the entry and exit layouts of {@code call} from the instance's format files. */
    void learn(File instanceDir, FileSyscall call) throws IOException {
        learn(call, EventFormat.read(instanceDir, "syscalls", "sys_enter_" + call.name),
                EventFormat.read(instanceDir, "syscalls", "sys_exit_" + call.name));
    }

    /** Learns one call's entry and exit layouts (tests feed format files directly). */
    void learn(FileSyscall call, EventFormat enter, EventFormat exit) {
        if (commonPid == null) {
            commonPid = enter.field("common_pid");
        }
        handlers.put(enter.id, enterHandler(call, enter));
        EventFormat.Field ret = exit.field("ret");
        handlers.put(exit.id, (cpu, ts, b, r) -> tracker.exit(cpu, ts, tid(b, r), call, EventFormat.integer(b, r, ret)));
    }

    private RecordHandlers.Handler enterHandler(FileSyscall call, EventFormat f) {
        EventFormat.Field fd = f.fields.get("fd");
        EventFormat.Field count = f.fields.get("count");
        EventFormat.Field pos = f.fields.containsKey("pos") ? f.fields.get("pos") : f.fields.get("pos_l");
        EventFormat.Field posHigh = f.fields.get("pos_h");
        EventFormat.Field flags = f.fields.get("flags");
        boolean open = call.op == FileSyscall.Op.OPEN;
        return (cpu, ts, b, r) -> {
            long offset = pos == null ? -1 : EventFormat.integer(b, r, pos);
            if (posHigh != null) {
                offset |= EventFormat.integer(b, r, posHigh) << 32; // 0 on 64-bit kernels: pos_l holds it all
            }
            long openFlags = !open ? 0 : call == FileSyscall.CREAT ? CREAT_FLAGS : flags == null ? 0
                    : EventFormat.integer(b, r, flags);
            tracker.enter(cpu, ts, tid(b, r), call, fd == null ? -1 : (int) EventFormat.integer(b, r, fd),
                    count == null ? 0 : EventFormat.integer(b, r, count), offset, openFlags);
        };
    }

    private int tid(ByteBuffer b, int r) {
        return (int) EventFormat.integer(b, r, commonPid);
    }

    @Override
    public void record(int cpu, long ts, ByteBuffer page, int offset, int length) {
        handlers.dispatch(cpu, ts, page, offset);
    }

    @Override
    public void lost(int cpu, long pageTimestamp, long count) {
        losses.lost(cpu, pageTimestamp, count);
    }
}
