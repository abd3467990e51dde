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
    /** PerfInfo/SampledProfile (perf's cpu-clock, sampled every 1 ms on each CPU). */
    public final boolean profile;
    /** PageFault/HardFault (perf's major page faults). */
    public final boolean hardFaults;
    /** One per flag this plan does not honour, in flag order. */
    public final List<SessionNotice> notices;

    private KernelFlagPlan(Set<KernelFlag> f, boolean perf, List<SessionNotice> notices) {
        this.process = f.contains(KernelFlag.PROCESS);
        this.thread = f.contains(KernelFlag.THREAD);
        this.cswitch = f.contains(KernelFlag.CSWITCH);
        this.readyThread = cswitch || f.contains(KernelFlag.DISPATCHER);
        this.diskIo = f.contains(KernelFlag.DISK_IO);
        this.diskIoInit = f.contains(KernelFlag.DISK_IO_INIT);
        this.fileIo = f.contains(KernelFlag.FILE_IO);
        this.fileIoInit = f.contains(KernelFlag.FILE_IO_INIT);
        this.profile = perf && f.contains(KernelFlag.PROFILE);
        this.hardFaults = perf && f.contains(KernelFlag.MEMORY_HARD_FAULTS);
        this.notices = Collections.unmodifiableList(notices);
    }

    /** The plan for {@code flags} in this JVM (perf events need Java 22+: {@link PerfCalls#missing()}). */
    public static KernelFlagPlan of(Set<KernelFlag> flags) {
        return of(flags, PerfCalls.missing());
    }

    /** The plan for {@code flags} where perf events are missing for the reason {@code perfMissing} (null: they are not). */
    static KernelFlagPlan of(Set<KernelFlag> flags, String perfMissing) {
        List<SessionNotice> notices = new ArrayList<SessionNotice>();
        for (KernelFlag f : KernelFlag.values()) {
            if (flags.contains(f)) {
                String why = unsupported(f, perfMissing);
                if (why != null) {
                    notices.add(new SessionNotice(f == KernelFlag.NO_SYSCONFIG ? SessionNotice.NOTE : SessionNotice.PROBLEM,
                            "kernel=" + f.optionName() + ": " + why));
                }
            }
        }
        return new KernelFlagPlan(flags, perfMissing == null, notices);
    }

    /** True when any kernel events are to be collected. */
    public boolean collects() {
        return process || thread || cswitch || readyThread || diskIo || diskIoInit || fileIo || fileIoInit || needsPerf();
    }

    /** perf events: CPU samples or hard faults. */
    boolean needsPerf() {
        return profile || hardFaults;
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
        return unsupported(f, PerfCalls.missing());
    }

    private static String unsupported(KernelFlag f, String perfMissing) {
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
            case MEMORY_HARD_FAULTS:
                return perfMissing == null ? null : "not recorded: " + perfMissing;
            case MEMORY_PAGE_FAULTS:
                return "not recorded on Linux: perf's page-fault events tell major from minor faults, not the kinds"
                        + " Windows' PageFault records name (transition, demand-zero, copy-on-write, guard page)";
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
