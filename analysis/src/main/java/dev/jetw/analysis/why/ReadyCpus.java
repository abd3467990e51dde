package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.function.LongToIntFunction;

/**
 * Who held the CPUs while a call's thread was ready, waiting for a CPU ({@link CpuHolders}): over the call's
 * ready stretches, on each CPU that has context switches in the trace, the thread switched in and for how long,
 * summed per thread. Exact in the file's 100 ns ticks: the threads' time + idle + both unknowns = ready time ×
 * CPUs ({@link #cpuTime()}).
 */
public final class ReadyCpus {

    /** A thread that held a CPU while the call's thread was ready, and for how long (summed over the CPUs). */
    public static final class Holder {
        /** The kernel (OS) thread id; never 0 (the idle thread is {@link #idle}). */
        public final long threadId;
        public final long time;
        /**
         * Whether {@link #time} is an upper bound: the trace records some threads' switches only and not all of this
         * one's, so between two of its switches other threads may have run unrecorded.
         */
        public final boolean atMost;

        Holder(long threadId, long time, boolean atMost) {
            this.threadId = threadId;
            this.time = time;
            this.atMost = atMost;
        }
    }

    /** A process whose threads held CPUs while the call's thread was ready (-1: threads of no known process). */
    public static final class ProcessHolder {
        public final int processId;
        public final long time;
        public final int threads;
        /** Whether {@link #time} is an upper bound: so is one of its threads' ({@link Holder#atMost}). */
        public final boolean atMost;

        ProcessHolder(int processId, long time, int threads, boolean atMost) {
            this.processId = processId;
            this.time = time;
            this.threads = threads;
            this.atMost = atMost;
        }
    }

    /** The thread's time in the READY state inside the call. */
    public final long ready;
    /** The CPUs with context switches in the trace, ascending: the ones looked at. */
    public final List<Integer> cpus;
    /** Every thread that ran on those CPUs during the ready stretches, most time first (then the lower id). */
    public final List<Holder> threads;
    /** Time the CPUs ran their idle thread (thread 0). */
    public final long idle;
    /** Time before a CPU's first context switch in the trace: who ran there is not known. */
    public final long beforeFirstSwitch;
    /**
     * Time between two switches of a CPU that do not meet (the thread the second one switches out is not the one
     * the first switched in): the switches between them are not in the trace.
     */
    public final long notRecorded;
    /**
     * Whether the trace records only some threads' switches (the portable backend on Linux: those to or from the
     * traced processes' threads): then idle time and the time of threads not covered are upper bounds.
     */
    public final boolean someThreadsOnly;
    /** Whether {@link #idle} is an upper bound (it is in a trace of some threads' switches only). */
    public final boolean idleAtMost;

    ReadyCpus(long ready, List<Integer> cpus, Map<Long, Long> held, long beforeFirstSwitch, long notRecorded) {
        this(ready, cpus, held, beforeFirstSwitch, notRecorded, null);
    }

    /** {@code recordedInFull}: the threads every switch of which is in the trace, or null for every thread. */
    ReadyCpus(long ready, List<Integer> cpus, Map<Long, Long> held, long beforeFirstSwitch, long notRecorded,
              LongPredicate recordedInFull) {
        this.ready = ready;
        this.someThreadsOnly = recordedInFull != null;
        this.idleAtMost = someThreadsOnly;
        this.cpus = Collections.unmodifiableList(new ArrayList<>(cpus));
        List<Holder> t = new ArrayList<>();
        long idleTime = 0;
        for (Map.Entry<Long, Long> e : held.entrySet()) {
            if (e.getKey() == 0) {
                idleTime += e.getValue();
            } else if (e.getValue() > 0) {
                t.add(new Holder(e.getKey(), e.getValue(), recordedInFull != null && !recordedInFull.test(e.getKey())));
            }
        }
        t.sort(Comparator.comparingLong((Holder h) -> -h.time).thenComparingLong(h -> h.threadId));
        this.threads = Collections.unmodifiableList(t);
        this.idle = idleTime;
        this.beforeFirstSwitch = beforeFirstSwitch;
        this.notRecorded = notRecorded;
    }

    /** The CPU time looked at: ready time × CPUs; the threads' time, idle and unknown add up to it. */
    public long cpuTime() {
        return ready * cpus.size();
    }

    /** Time no recorded switch accounts for ({@link #beforeFirstSwitch} + {@link #notRecorded}). */
    public long unknown() {
        return beforeFirstSwitch + notRecorded;
    }

    /** The threads' time summed per process ({@code processOf}: a thread's process, -1 unknown), most time first. */
    public List<ProcessHolder> byProcess(LongToIntFunction processOf) {
        Map<Integer, long[]> sums = new LinkedHashMap<>();
        for (Holder h : threads) {
            long[] s = sums.computeIfAbsent(processOf.applyAsInt(h.threadId), k -> new long[3]);
            s[0] += h.time;
            s[1]++;
            s[2] |= h.atMost ? 1 : 0;
        }
        List<ProcessHolder> out = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : sums.entrySet()) {
            out.add(new ProcessHolder(e.getKey(), e.getValue()[0], (int) e.getValue()[1], e.getValue()[2] != 0));
        }
        out.sort(Comparator.comparingLong((ProcessHolder p) -> -p.time).thenComparingInt(p -> p.processId));
        return out;
    }
}
