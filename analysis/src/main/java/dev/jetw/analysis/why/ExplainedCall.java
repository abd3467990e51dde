package dev.jetw.analysis.why;

/**
 * A finished traced call whose time is to be explained: where it ran (process, and the thread id of
 * its records' headers: the OS thread id on Windows, the Java thread id in portable-backend files),
 * which call it is (instance id, method id) and when (FILETIMEs, 100 ns).
 */
public final class ExplainedCall {

    public final int processId;
    public final int threadId;
    public final int instanceId;
    public final int parentInstanceId;
    public final int methodId;
    public final long start;
    public final long end;

    public ExplainedCall(int processId, int threadId, int instanceId, int parentInstanceId, int methodId,
                         long start, long end) {
        this.processId = processId;
        this.threadId = threadId;
        this.instanceId = instanceId;
        this.parentInstanceId = parentInstanceId;
        this.methodId = methodId;
        this.start = start;
        this.end = end;
    }

    /** Wall time in 100 ns units. */
    public long duration() {
        return end - start;
    }

    @Override
    public String toString() {
        return "call " + instanceId + " of method " + methodId + " on thread " + threadId + " (pid " + processId + ") "
                + start + ".." + end;
    }
}
