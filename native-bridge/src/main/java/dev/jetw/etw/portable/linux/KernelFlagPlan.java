package dev.jetw.etw.portable.linux;

import dev.jetw.etl.SessionNotice;
import dev.jetw.etw.KernelFlag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * What {@code kernel=} flags mean on Linux: which ETW kernel classes the collector writes for them, from which
 * tracepoints, and, for every flag it cannot honour, one notice saying so (never silence). The table is
 * docs/linux-kernel-events.md's "Flags".
 */
public final class KernelFlagPlan {

    /** Process/DCStart, Start, End (task_newtask without CLONE_THREAD, sched_process_exit with group_dead). */
    public final boolean process;
    /** Thread/DCStart, Start, End (the /proc rundown, task_newtask, sched_process_exit). */
    public final boolean thread;
    /** Thread/CSwitch (sched_switch). */
    public final boolean cswitch;
    /** Thread/ReadyThread (sched_waking, sched_wakeup_new): with cswitch, as the why analysis needs, or dispatcher. */
    public final boolean readyThread;
    /** DiskIo/Read, Write, FlushBuffers (block_io_start or block_bio_queue, block_rq_complete). */
    public final boolean diskIo;
    /** DiskIo/ReadInit, WriteInit, FlushInit at the request's start. */
    public final boolean diskIoInit;
    /** FileIo/OpEnd (the syscall exits): each operation's completion, bytes and status. */
    public final boolean fileIo;
    /** FileIo/Create, Read, Write, Flush, Cleanup, Close (the syscall entries; Create at openat's return). */
    public final boolean fileIoInit;
    /** One per flag this plan does not honour, in flag order. */
    public final List<SessionNotice> notices;

    private KernelFlagPlan(Set<KernelFlag> f, List<SessionNotice> notices) {
        this.process = f.contains(KernelFlag.PROCESS);
        this.thread = f.contains(KernelFlag.THREAD);
        this.cswitch = f.contains(KernelFlag.CSWITCH);
        this.readyThread = cswitch || f.contains(KernelFlag.DISPATCHER);
        this.diskIo = f.contains(KernelFlag.DISK_IO);
        this.diskIoInit = f.contains(KernelFlag.DISK_IO_INIT);
        this.fileIo = f.contains(KernelFlag.FILE_IO);
        this.fileIoInit = f.contains(KernelFlag.FILE_IO_INIT);
        this.notices = Collections.unmodifiableList(notices);
    }

    /** The plan for {@code flags}. */
    public static KernelFlagPlan of(Set<KernelFlag> flags) {
        List<SessionNotice> notices = new ArrayList<SessionNotice>();
        for (KernelFlag f : KernelFlag.values()) {
            if (flags.contains(f)) {
                String why = unsupported(f);
                if (why != null) {
                    notices.add(new SessionNotice(f == KernelFlag.NO_SYSCONFIG ? SessionNotice.NOTE : SessionNotice.PROBLEM,
                            "kernel=" + f.optionName() + ": " + why));
                }
            }
        }
        return new KernelFlagPlan(flags, notices);
    }

    /** True when any kernel events are to be collected. */
    public boolean collects() {
        return process || thread || cswitch || readyThread || diskIo || diskIoInit || fileIo || fileIoInit;
    }

    /** True when the scheduler instance is needed (everything but disk I/O lives there; task events keep the thread list). */
    boolean needsSched() {
        return collects();
    }

    boolean needsBlock() {
        return diskIo || diskIoInit;
    }

    /** The syscall instance: file I/O (FileIo names come with either flag: without them no operation names its file). */
    boolean needsFile() {
        return fileIo || fileIoInit;
    }

    /** Why a flag is not honoured here (one line), or null when it is. */
    static String unsupported(KernelFlag f) {
        switch (f) {
            case PROCESS:
            case THREAD:
            case CSWITCH:
            case DISPATCHER:
            case DISK_IO:
            case DISK_IO_INIT:
            case FILE_IO:
            case FILE_IO_INIT:
                return null;
            case PROFILE:
                return "not recorded on Linux: CPU samples need perf_event_open(2), a system call pure Java cannot"
                        + " make (the portable backend has no native code)";
            case MEMORY_HARD_FAULTS:
            case MEMORY_PAGE_FAULTS:
                return "not recorded on Linux: no tracepoint tells a major (hard) fault from a minor one; that needs"
                        + " perf_event_open(2)'s page-fault software events, which pure Java cannot use";
            case DISK_FILE_IO:
                return "not recorded on Linux as a flag of its own: the FileIo names it asks for (FileIo/Name,"
                        + " FileRundown) come with kernel=file_io or file_io_init";
            case NETWORK_TCPIP:
                return "not recorded on Linux: the tcp tracepoints do not give TcpIp's send/receive sizes; not implemented";
            case IMAGE_LOAD:
                return "not recorded on Linux: there is no image-load event (mmap of a file is not one); not implemented";
            case NO_SYSCONFIG:
                return "nothing to suppress: the portable backend writes no SysConfig rundown";
            default:
                return "not recorded: Linux has no equivalent of this Windows kernel class";
        }
    }
}
