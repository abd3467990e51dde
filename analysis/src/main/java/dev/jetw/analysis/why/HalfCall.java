package dev.jetw.analysis.why;

/**
 * A call while its START and END are being paired (by process and instance id, in either order: file
 * order is not time order): what the events seen so far said of it.
 */
final class HalfCall {

    static final long NONE = Long.MIN_VALUE;

    int threadId;
    int parentInstanceId;
    int methodId;
    long start = NONE;
    long end = NONE;

    /** Takes what a START ({@code isStart}) or END says; an END does not overwrite what its START said. */
    void seen(int tid, int parent, int method, long time, boolean isStart) {
        if (isStart || start == NONE) {
            threadId = tid;
            parentInstanceId = parent;
            methodId = method;
        }
        if (isStart) {
            start = time;
        } else {
            end = time;
        }
    }

    boolean complete() {
        return start != NONE && end != NONE;
    }

    ExplainedCall call(int pid, int instance) {
        return new ExplainedCall(pid, threadId, instance, parentInstanceId, methodId, start, end);
    }

    /** The pairing key of a call: process id and instance id. */
    static long key(int pid, int instance) {
        return (long) pid << 32 | (instance & 0xFFFFFFFFL);
    }
}
