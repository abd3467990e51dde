package dev.jetw.etw.portable.linux;

/**
 * Linux scheduling facts in Windows terms, for Thread/CSwitch (v2) and Thread/ReadyThread (v2).
 *
 * <p>CSwitch.OldThreadState is a KTHREAD_STATE (0 Initialized, 1 Ready, 2 Running, 3 Standby, 4 Terminated,
 * 5 Waiting, 6 Transition, 7 DeferredReady); OldThreadWaitReason a KWAIT_REASON (0 Executive, 1 FreePage,
 * 2 PageIn, 3 PoolAllocation, 4 DelayExecution, 5 Suspended, 6 UserRequest, 7..13 Wr* of the same, 14 WrEventPair,
 * 15 WrQueue, 16 WrLpcReceive, 17 WrLpcReply, 18 WrVirtualMemory, 19 WrPageOut, 20 WrRendezvous, 21 WrKeyedEvent,
 * 22 WrTerminated, 23 WrProcessInSwap, 24 WrCpuRateControl, 25 WrCalloutStack, 26 WrKernel, 27 WrResource,
 * 28 WrPushLock, 29 WrMutex, 30 WrQuantumEnd, 31 WrDispatchInt, 32 WrPreempted, 33 WrYieldExecution,
 * 34 WrFastMutex, 35 WrGuardedMutex, 36 WrRundown, 37 WrAlertByThreadId, 38 WrDeferredPreempt, 39 WrPhysicalFault);
 * OldThreadWaitMode 0 KernelMode, 1 UserMode. Windows priorities: 1..15 variable (8 = normal), 16..31 real time.
 *
 * <pre>
 * prev_state        Linux meaning                                   OldThreadState  WaitReason          Mode
 * R+ (0x100)        preempted inside the kernel (preempt_schedule*,   1 Ready       32 WrPreempted      0 Kernel
 *                   cond_resched)
 * R  (0)            runnable and switched out through schedule():     1 Ready       32 WrPreempted      0 Kernel
 *                   preempted on return to user space (need_resched:
 *                   slice end, wakeup preemption; with PREEMPT_NONE /
 *                   VOLUNTARY this is how most preemptions look), or
 *                   sched_yield (Thread.yield, HotSpot spin loops)
 * S  (0x1)          interruptible sleep: futex (park, monitors,        5 Waiting     6 UserRequest       1 User
 *                   Object.wait), nanosleep, epoll, socket/pipe read
 * D  (0x2)          uninterruptible: disk I/O, page-in, kernel locks   5 Waiting     0 Executive         0 Kernel
 * I  (0x80)         idle kernel thread waiting for work (TASK_IDLE)   5 Waiting     15 WrQueue          0 Kernel
 * T  (0x4), t (0x8) stopped by a signal / by ptrace                    5 Waiting     5 Suspended         1 User
 * P  (0x40)         parked kernel thread                               5 Waiting     5 Suspended         0 Kernel
 * X (0x10), Z (0x20) exiting: dead / zombie                            4 Terminated  22 WrTerminated     0 Kernel
 * </pre>
 * Linux does not say why an S or D sleep happened (the tracepoint has no wait channel), so one reason stands
 * for all; ThreadStates in the reader only needs Waiting vs Ready vs Terminated to be right, which they are.
 */
final class ThreadStateMapping {

    public static final int STATE_READY = 1;
    public static final int STATE_TERMINATED = 4;
    public static final int STATE_WAITING = 5;

    public static final int EXECUTIVE = 0;
    public static final int SUSPENDED = 5;
    public static final int USER_REQUEST = 6;
    public static final int WR_QUEUE = 15;
    public static final int WR_TERMINATED = 22;
    public static final int WR_PREEMPTED = 32;
    public static final int WR_YIELD_EXECUTION = 33;

    public static final int KERNEL_MODE = 0;
    public static final int USER_MODE = 1;

    /** ReadyThread.Flag 0x1: "readied from DPC": we use it for wakeups from interrupt context. */
    public static final int READY_FROM_DPC = 0x1;
    static final int TRACE_FLAG_HARDIRQ = 0x08;
    static final int TRACE_FLAG_SOFTIRQ = 0x10;

    private final PrevState codec;

    ThreadStateMapping(PrevState codec) {
        this.codec = codec;
    }

    public int oldThreadState(long prevState) {
        if (codec.preempted(prevState)) {
            return STATE_READY;
        }
        switch (codec.letter(prevState)) {
            case 'R':
                return STATE_READY;
            case 'X':
            case 'Z':
                return STATE_TERMINATED;
            default:
                return STATE_WAITING;
        }
    }

    public int waitReason(long prevState) {
        if (codec.preempted(prevState)) {
            return WR_PREEMPTED;
        }
        switch (codec.letter(prevState)) {
            case 'R':
                return WR_PREEMPTED; // measured on 6.18 PREEMPT_NONE: 30 of 31 preemptions of a sleeper were "R"
            case 'S':
                return USER_REQUEST;
            case 'D':
                return EXECUTIVE;
            case 'I':
                return WR_QUEUE;
            case 'T':
            case 't':
            case 'P':
                return SUSPENDED;
            case 'X':
            case 'Z':
                return WR_TERMINATED;
            default:
                return EXECUTIVE;
        }
    }

    public int waitMode(long prevState) {
        if (codec.preempted(prevState)) {
            return KERNEL_MODE;
        }
        char c = codec.letter(prevState);
        return c == 'S' || c == 'T' || c == 't' ? USER_MODE : KERNEL_MODE;
    }

    /**
     * A Windows priority for a kernel prio (sched_switch prev_prio/next_prio, sched_wakeup prio):
     * deadline (-1) 31; real time (0..99 = 99 - rt_priority) 16..31; normal (100..139 = 120 + nice) 15..1 with
     * nice 0 = 8, Windows' normal priority.
     */
    public static int windowsPriority(int prio) {
        if (prio < 0) {
            return 31;
        }
        if (prio < 100) {
            int rt = 99 - prio; // 1..99
            return 16 + Math.max(0, rt - 1) * 15 / 98;
        }
        int nice = Math.max(-20, Math.min(19, prio - 120));
        return nice <= 0 ? 8 + Math.round(-nice * 7 / 20f) : 8 - Math.round(nice * 7 / 19f);
    }

    /** ReadyThread.Flag for a wakeup record's common_flags. */
    public static int readyFlag(int commonFlags) {
        return (commonFlags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ)) != 0 ? READY_FROM_DPC : 0;
    }
}
