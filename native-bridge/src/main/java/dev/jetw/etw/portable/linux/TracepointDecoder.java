package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Turns raw tracepoint records into {@link TracepointSink} calls: a record's common_type (u16 at offset 0)
 * selects the event, whose field offsets come from its format file, read once per instance. Nothing is
 * hard-coded: layouts change between kernels (sched_switch's prev_state went from long to int and back,
 * block events gained fields, task_rename may lose its pid). Records of events it does not know are
 * counted and skipped. Scheduler events allocate nothing; the rare thread events decode their names.
 */
final class TracepointDecoder implements PageDecoder.RecordVisitor {

    /** The scheduler and thread events, as (system, name). sched_wakeup is left out: see {@link TracefsSession}. */
    static final String[][] SCHED_EVENTS = {
        {"sched", "sched_switch"}, {"sched", "sched_waking"}, {"sched", "sched_wakeup_new"},
        {"sched", "sched_process_exit"}, {"task", "task_newtask"}, {"task", "task_rename"},
    };

    private final TracepointSink sink;
    final RecordHandlers handlers = new RecordHandlers();
    private EventFormat.Field commonPid;
    private EventFormat.Field commonFlags;
    private PrevState prevState;

    TracepointDecoder(TracepointSink sink) {
        this.sink = sink;
    }

    /** Learns the layouts of {@code events} (each must exist in the instance). */
    void learn(File instanceDir, String[][] events) throws IOException {
        for (String[] e : events) {
            learn(EventFormat.read(instanceDir, e[0], e[1]));
        }
    }

    /** Learns one event's layout (tests feed format files directly). */
    void learn(EventFormat f) {
        if (commonPid == null) {
            commonPid = f.field("common_pid");
            commonFlags = f.field("common_flags");
        }
        RecordHandlers.Handler h = handler(f);
        if (h != null) {
            handlers.put(f.id, h);
        }
        if (f.name.equals("sched_switch")) {
            prevState = PrevState.fromPrintFmt(f.printFmt);
        }
    }

    /** The prev_state codec of this kernel (from sched_switch's print fmt), or null before it was learnt. */
    PrevState prevState() {
        return prevState;
    }

    @Override
    public void record(int cpu, long ts, ByteBuffer page, int offset, int length) {
        handlers.dispatch(cpu, ts, page, offset);
    }

    @Override
    public void lost(int cpu, long pageTimestamp, long count) {
        sink.lost(cpu, pageTimestamp, count);
    }

    private int current(ByteBuffer b, int r) {
        return (int) EventFormat.integer(b, r, commonPid);
    }

    private RecordHandlers.Handler handler(EventFormat f) {
        String n = f.name;
        if (n.equals("sched_switch")) {
            EventFormat.Field prevPid = f.field("prev_pid");
            EventFormat.Field prevPrio = f.field("prev_prio");
            EventFormat.Field prevStateF = f.field("prev_state");
            EventFormat.Field nextPid = f.field("next_pid");
            EventFormat.Field nextPrio = f.field("next_prio");
            EventFormat.Field prevComm = f.fields.get("prev_comm");
            EventFormat.Field nextComm = f.fields.get("next_comm");
            return (cpu, ts, b, r) -> {
                int prev = (int) EventFormat.integer(b, r, prevPid);
                int next = (int) EventFormat.integer(b, r, nextPid);
                // The questions about the tasks as they were before this switch (a thread's final switch out may
                // make the sink forget it); the names are written after the switch's record.
                boolean namePrev = prevComm != null && sink.wantsName(prev);
                boolean nameNext = nextComm != null && sink.wantsName(next);
                sink.contextSwitch(cpu, ts, prev, (int) EventFormat.integer(b, r, prevPrio),
                        EventFormat.integer(b, r, prevStateF), next, (int) EventFormat.integer(b, r, nextPrio));
                if (namePrev) {
                    sink.switchedThreadName(cpu, ts, prev, EventFormat.chars(b, r, prevComm));
                }
                if (nameNext) {
                    sink.switchedThreadName(cpu, ts, next, EventFormat.chars(b, r, nextComm));
                }
            };
        }
        if (n.equals("sched_waking") || n.equals("sched_wakeup") || n.equals("sched_wakeup_new")) {
            TracepointSink.WakeKind kind = n.equals("sched_waking") ? TracepointSink.WakeKind.WAKING
                    : n.equals("sched_wakeup") ? TracepointSink.WakeKind.WAKEUP : TracepointSink.WakeKind.WAKEUP_NEW;
            EventFormat.Field pid = f.field("pid");
            EventFormat.Field prio = f.field("prio");
            EventFormat.Field target = f.field("target_cpu");
            return (cpu, ts, b, r) -> {
                sink.wakeup(cpu, ts, kind, current(b, r), (int) EventFormat.integer(b, r, pid),
                        (int) EventFormat.integer(b, r, prio), (int) EventFormat.integer(b, r, target),
                        (int) EventFormat.integer(b, r, commonFlags));
            };
        }
        if (n.equals("task_newtask")) {
            EventFormat.Field pid = f.field("pid");
            EventFormat.Field comm = f.field("comm");
            EventFormat.Field flags = f.field("clone_flags");
            return (cpu, ts, b, r) -> {
                sink.taskNew(cpu, ts, current(b, r), (int) EventFormat.integer(b, r, pid),
                        EventFormat.chars(b, r, comm), EventFormat.integer(b, r, flags));
            };
        }
        if (n.equals("sched_process_exit")) {
            EventFormat.Field pid = f.field("pid");
            EventFormat.Field comm = f.field("comm");
            EventFormat.Field groupDead = f.fields.get("group_dead"); // 6.x; absent before
            return (cpu, ts, b, r) -> {
                sink.taskExit(cpu, ts, (int) EventFormat.integer(b, r, pid), EventFormat.chars(b, r, comm),
                        groupDead != null && EventFormat.integer(b, r, groupDead) != 0);
            };
        }
        if (n.equals("task_rename")) {
            EventFormat.Field pid = f.fields.get("pid"); // 6.18 still has it; newer kernels may drop it
            EventFormat.Field oldComm = f.field("oldcomm");
            EventFormat.Field newComm = f.field("newcomm");
            return (cpu, ts, b, r) -> {
                int tid = pid != null ? (int) EventFormat.integer(b, r, pid) : current(b, r);
                sink.taskRename(cpu, ts, tid, EventFormat.chars(b, r, oldComm), EventFormat.chars(b, r, newComm));
            };
        }
        TracepointSink.BlockPhase phase = n.equals("block_bio_queue") ? TracepointSink.BlockPhase.BIO_QUEUE
                : n.equals("block_rq_complete") ? TracepointSink.BlockPhase.RQ_COMPLETE
                : n.equals("block_io_start") ? TracepointSink.BlockPhase.IO_START : null;
        if (phase == null) {
            return null;
        }
        EventFormat.Field dev = f.field("dev");
        EventFormat.Field sector = f.field("sector");
        EventFormat.Field nr = f.field("nr_sector");
        EventFormat.Field bytes = f.fields.get("bytes");
        EventFormat.Field error = f.fields.get("error");
        EventFormat.Field rwbs = f.field("rwbs");
        return (cpu, ts, b, r) -> {
            int nrSector = (int) EventFormat.integer(b, r, nr);
            sink.block(cpu, ts, phase, current(b, r), (int) EventFormat.integer(b, r, dev),
                    EventFormat.integer(b, r, sector), nrSector,
                    bytes != null ? (int) EventFormat.integer(b, r, bytes) : nrSector * 512,
                    EventFormat.chars(b, r, rwbs), error != null ? (int) EventFormat.integer(b, r, error) : 0);
        };
    }
}
