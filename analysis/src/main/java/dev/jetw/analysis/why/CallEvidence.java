package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
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

    private List<WakerSum> wakers;

    /** The waits ended by each waker inside the call, the largest waiting time first (then more wake-ups, lower thread id). */
    List<WakerSum> wakers() {
        if (wakers == null) {
            Map<Long, WakerSum> by = new HashMap<>();
            for (ThreadStates.Wake w : states.wakes()) {
                by.computeIfAbsent(w.waker, k -> new WakerSum(w.waker, w.wakerPid)).add(w);
            }
            wakers = new ArrayList<>(by.values());
            wakers.sort(Comparator.comparingLong((WakerSum s) -> -s.waited).thenComparingInt(s -> -s.wakeups)
                    .thenComparingLong(s -> s.waker));
        }
        return wakers;
    }

    Usage usage(Intervals i, long bytes, boolean stopsEveryThread) {
        return new Usage(i.size(), bytes, i.coveredWithin(call.start, call.end), stopsEveryThread);
    }

    /** One waker's wake-ups of the thread inside the call. */
    static final class WakerSum {
        final long waker;
        final int processId;
        int wakeups;
        long waited;
        long longest = -1;
        long longestAt;

        WakerSum(long waker, int processId) {
            this.waker = waker;
            this.processId = processId;
        }

        void add(ThreadStates.Wake w) {
            wakeups++;
            waited += w.waited;
            if (w.waited > longest) {
                longest = w.waited;
                longestAt = w.time;
            }
        }
    }
}
