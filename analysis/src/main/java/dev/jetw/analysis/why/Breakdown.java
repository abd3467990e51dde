package dev.jetw.analysis.why;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Where one call's wall time went, from what the trace holds on its thread during the call. Two
 * parts add up to the wall time each: traced children + self; and (with kernel context switches)
 * the thread states (with the threads that woke it: {@link #wakers}, and those that held the CPUs while
 * it was ready: {@link #readyCpus}). The rest overlaps them: disk I/O the thread issued, its file I/O, its hard page faults, JVM
 * runtime events. A part the trace holds no events for is null, and {@link #notes} say why;
 * zero means "the trace could have shown it and did not".
 */
public final class Breakdown {

    public final ExplainedCall call;
    /** Time covered by the call's direct traced children, and how many there were. */
    public final long children;
    public final int childCalls;
    /** The kernel's (OS) thread id of the call's thread, -1 when the trace does not say. */
    public final long kernelThreadId;
    /** Time per thread state (ThreadStates), adding up to the wall time; null without context switches for the thread. */
    public final Map<String, Long> states;
    /**
     * The threads whose Thread/ReadyThread ended the thread's waits inside the call, the largest waiting
     * time first; null when the trace cannot tell (no context switches or no ReadyThread events for it).
     */
    public final List<Waker> wakers;
    /**
     * Who held the CPUs while the thread was ready, waiting for a CPU; null when it was not ready inside the call
     * or the trace cannot tell (no context switches for it, buffers not per CPU; {@link #notes} say which).
     */
    public final ReadyCpus readyCpus;
    /** PerfInfo/SampledProfile samples of the thread inside the call; -1 when the trace has none at all. */
    public final long samples;
    /** Disk reads, writes and flushes the thread issued that overlap the call; null when the trace has none. */
    public final Usage diskIo;
    /** Hard page faults of the thread that overlap the call; null when the trace has none. */
    public final Usage hardFaults;
    /** File reads, writes and flushes of the thread that overlap the call; null when the trace has no FileIo operations. */
    public final FileIoUsage fileIo;
    /** Per JVM runtime event class ("JvmGcPause"), the events that overlap the call; null when the trace has none. */
    public final Map<String, Usage> jvm;
    /** What the trace cannot tell, one sentence each. */
    public final List<String> notes;

    Breakdown(ExplainedCall call, long children, int childCalls, long kernelThreadId, Map<String, Long> states,
              List<Waker> wakers, ReadyCpus readyCpus, long samples, Usage diskIo, Usage hardFaults, FileIoUsage fileIo, Map<String, Usage> jvm,
              List<String> notes) {
        this.call = call;
        this.children = children;
        this.childCalls = childCalls;
        this.kernelThreadId = kernelThreadId;
        this.states = states == null ? null : Collections.unmodifiableMap(states);
        this.wakers = wakers == null ? null : Collections.unmodifiableList(wakers);
        this.readyCpus = readyCpus;
        this.samples = samples;
        this.diskIo = diskIo;
        this.hardFaults = hardFaults;
        this.fileIo = fileIo;
        this.jvm = jvm == null ? null : Collections.unmodifiableMap(jvm);
        this.notes = Collections.unmodifiableList(notes);
    }

    public long wall() {
        return call.duration();
    }

    /** Wall time not inside a traced child. */
    public long self() {
        return call.duration() - children;
    }
}
