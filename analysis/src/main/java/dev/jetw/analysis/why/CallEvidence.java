package dev.jetw.analysis.why;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** What pass two found for one call: its children, its thread's states, I/O, faults, samples and JVM events. */
final class CallEvidence {

    final ExplainedCall call;
    final long kernelThreadId;
    final Intervals children = new Intervals();
    final ThreadStates states;
    long samples;
    final Intervals disk = new Intervals();
    long diskBytes;
    final Intervals faults = new Intervals();
    long faultBytes;
    final FileIoEvidence fileIo = new FileIoEvidence();
    final Map<String, Intervals> jvm = new TreeMap<>();
    final Map<String, Boolean> jvmWide = new HashMap<>();

    CallEvidence(ExplainedCall call, long kernelThreadId) {
        this.call = call;
        this.kernelThreadId = kernelThreadId;
        this.states = new ThreadStates(call.start, call.end);
    }

    /** True when [from, to] overlaps the call (an instant inside it counts). */
    boolean overlaps(long from, long to) {
        return from <= call.end && to >= call.start;
    }

    Usage usage(Intervals i, long bytes, boolean stopsEveryThread) {
        return new Usage(i.size(), bytes, i.coveredWithin(call.start, call.end), stopsEveryThread);
    }
}
