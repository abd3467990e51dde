package dev.jetw.analysis.why;

/**
 * A thread that woke a call's thread: the header thread of the Thread/ReadyThread records that ended
 * the thread's waits inside the call, with the waiting time those wake-ups ended (inside the call) and,
 * for the wake-up that ended the longest wait, when it happened and the traced call the waker was in.
 */
public final class Waker {

    /** The waker's kernel (OS) thread id; 0 is an interrupt or the idle CPU, -1 a record that names no thread. */
    public final long threadId;
    /** Its process id, -1 when the trace does not say. */
    public final int processId;
    /** Its thread id in jetw's records when it has traced calls (the key of {@link TracedThreads}), else -1. */
    public final long tracedThread;
    public final int wakeups;
    /** The waiting time its wake-ups ended, inside the call, in 100 ns. */
    public final long waited;
    /** FILETIME of the wake-up that ended its longest wait. */
    public final long at;
    /** The innermost traced call of the waker around {@link #at}, or null (not a traced thread, or in no call then). */
    public final ExplainedCall call;

    Waker(long threadId, int processId, long tracedThread, int wakeups, long waited, long at, ExplainedCall call) {
        this.threadId = threadId;
        this.processId = processId;
        this.tracedThread = tracedThread;
        this.wakeups = wakeups;
        this.waited = waited;
        this.at = at;
        this.call = call;
    }

    /** An interrupt (a timer, a device) or the idle CPU readied the thread: no thread did. */
    public boolean isInterruptOrIdle() {
        return threadId == 0;
    }
}
