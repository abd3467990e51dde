package dev.jetw.etw.portable.linux;

/**
 * The decoded tracepoint evidence, one call per record, in each CPU's time order (CPUs interleave: a
 * poller reads one CPU's buffer after the other). Times are trace-clock nanoseconds (trace_clock=mono:
 * the clock of {@code System.nanoTime()}). {@code cpu} is the CPU the record was logged on;
 * {@code currentTid} the task running there then (common_pid: 0 = the idle task, or an interrupt of it).
 * Calls come from the pollers' threads: one per tracefs instance.
 */
interface TracepointSink {

    /** sched_switch: {@code prevTid} leaves the CPU in {@code prevState} (raw, see {@link PrevState}), {@code nextTid} gets it. */
    void contextSwitch(int cpu, long ts, int prevTid, int prevPrio, long prevState, int nextTid, int nextPrio);

    /**
     * Whether the sink wants the name of thread {@code tid}, met in a sched_switch: then the decoder reads the
     * record's prev_comm or next_comm and calls {@link #switchedThreadName}. A question first, so that the
     * decoder makes no string per switch; asked before {@link #contextSwitch} of the same record (about the tasks
     * as they were before it), the name given after it.
     */
    default boolean wantsName(int tid) {
        return false;
    }

    /** The name (comm) sched_switch gave thread {@code tid}, which {@link #wantsName} asked for. */
    default void switchedThreadName(int cpu, long ts, int tid, String comm) {
    }

    /**
     * sched_waking / sched_wakeup_new: {@code wakeeTid} is made runnable, to run on {@code targetCpu}.
     * {@code commonFlags} are the record's irq flags (TRACE_FLAG_HARDIRQ 0x08, SOFTIRQ 0x10: woken from
     * interrupt context, where {@code currentTid} is merely the task that was interrupted).
     */
    void wakeup(int cpu, long ts, WakeKind kind, int currentTid, int wakeeTid, int prio, int targetCpu, int commonFlags);

    /** task_newtask: {@code parentTid} created {@code tid} (CLONE_THREAD in cloneFlags: a thread of its process). */
    void taskNew(int cpu, long ts, int parentTid, int tid, String comm, long cloneFlags);

    /** sched_process_exit: {@code tid} exits; {@code groupDead}: it was the last thread of its process. */
    void taskExit(int cpu, long ts, int tid, String comm, boolean groupDead);

    /** task_rename: {@code tid} changed its name (prctl PR_SET_NAME, pthread_setname_np, exec). */
    void taskRename(int cpu, long ts, int tid, String oldComm, String newComm);

    /** A block-layer event; {@code dev} is the kernel's dev_t (major &lt;&lt; 20 | minor). */
    void block(int cpu, long ts, BlockPhase phase, int currentTid, int dev, long sector, int nrSector, int bytes,
               String rwbs, int error);

    /** Events lost on {@code cpu} before {@code ts}: {@code count} of them, or -1 when the page does not say. */
    void lost(int cpu, long ts, long count);

    enum WakeKind { WAKING, WAKEUP, WAKEUP_NEW }

    enum BlockPhase { BIO_QUEUE, RQ_COMPLETE, IO_START }
}
