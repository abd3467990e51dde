package dev.jetw.analysis.why;

import dev.jetw.analysis.kernel.KernelEvent;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What kinds of evidence a trace holds at all, so that a breakdown can say "this trace has no context
 * switches" instead of showing zero: kernel events by the kind a breakdown uses, and the JVM runtime
 * event classes present.
 */
public final class TraceContents {

    /** The kernel evidence a breakdown uses. */
    public enum Kernel {
        CSWITCH, READY_THREAD, SAMPLED_PROFILE, DISK_IO, DISK_IO_WITHOUT_THREAD, HARD_FAULT,
        /** FileIo Read, Write, Flush: an operation's start, with its thread (TTID) and file object. */
        FILE_IO,
        /** FileIo OpEnd: an operation's completion (paired by IrpPtr), with the bytes transferred. */
        FILE_IO_END,
        /** FileIo Name, FileCreate, FileRundown and Create: a file object's name. */
        FILE_NAME
    }

    private final Map<Kernel, Long> kernel = new TreeMap<>();
    private final TreeSet<String> runtimeClasses = new TreeSet<>();
    private final TreeSet<String> runtimeFamilies = new TreeSet<>();
    /** Per kernel thread: whether its last context switch put it on a CPU (events fed in time order). */
    private final Map<Integer, Boolean> running = new HashMap<>();
    /** Per kernel thread: its switch-outs while not on a CPU. */
    private final Map<Integer, Long> missingByThread = new HashMap<>();
    private long missingSwitchIns;

    /** Counts a kernel event of a kind a breakdown uses (others are ignored). */
    public void kernel(KernelEvent k) {
        Kernel kind = kindOf(k);
        if (kind != null) {
            kernel.merge(kind, 1L, Long::sum);
        }
        if (kind == Kernel.CSWITCH) {
            int out = k.oldThreadId();
            if (out > 0 && Boolean.FALSE.equals(running.put(out, Boolean.FALSE))) {
                missingSwitchIns++; // switched out twice with no switch-in between (CpuTimeline)
                missingByThread.merge(out, 1L, Long::sum);
            }
            if (k.newThreadId() > 0) {
                running.put(k.newThreadId(), Boolean.TRUE);
            }
        }
    }

    /**
     * Context switches out of a thread that was not on a CPU by the trace (its switch-in is missing;
     * {@link CpuTimeline} says how that time is counted), over the threads {@link #countSwitchInsOf} kept (every
     * thread until then). Exact when the events were fed in time order.
     */
    public long missingSwitchIns() {
        return missingSwitchIns;
    }

    /**
     * Counts the missing switch-ins of the threads {@code traced} accepts only (by kernel thread id: the traced
     * processes' threads): a thread of another process shows in a context switch only when one of the traced threads leaves or takes its CPU, so its
     * own switch-ins are mostly not in the trace and would count as missing (the note said 85 where the Perfetto
     * export, which counts the traced threads, said 79).
     */
    public void countSwitchInsOf(java.util.function.LongPredicate traced) {
        missingSwitchIns = 0;
        for (Map.Entry<Integer, Long> e : missingByThread.entrySet()) {
            if (traced.test(e.getKey() & 0xFFFFFFFFL)) {
                missingSwitchIns += e.getValue();
            }
        }
    }

    /** A JVM runtime event of class {@code className} (family {@code family}). */
    public void runtime(String className, String family) {
        runtimeClasses.add(className);
        runtimeFamilies.add(family);
    }

    /** The kind of evidence a kernel event is, or null when a breakdown does not use it. */
    static Kernel kindOf(KernelEvent k) {
        int type = k.type();
        switch (k.kernelClass()) {
            case THREAD:
                return type == 36 ? Kernel.CSWITCH : type == 50 ? Kernel.READY_THREAD : null;
            case PERF_INFO:
                return type == 46 ? Kernel.SAMPLED_PROFILE : null;
            case DISK_IO: // Read, Write, FlushBuffers: the completions, with their duration
                if (type != 10 && type != 11 && type != 14) {
                    return null;
                }
                // Before version 3 the issuing thread is not in the payload, and the header's is whoever completed it.
                return k.fields().containsKey("issuingThreadId") ? Kernel.DISK_IO : Kernel.DISK_IO_WITHOUT_THREAD;
            case PAGE_FAULT:
                return type == 32 ? Kernel.HARD_FAULT : null;
            case FILE_IO:
                return type == 67 || type == 68 || type == 73 ? Kernel.FILE_IO : type == 76 ? Kernel.FILE_IO_END
                        : type == 0 || type == 32 || type == 36 || type == 64 ? Kernel.FILE_NAME : null;
            default:
                return null;
        }
    }

    public long count(Kernel kind) {
        return kernel.getOrDefault(kind, 0L);
    }

    public boolean hasKernelEvents() {
        return !kernel.isEmpty();
    }

    public boolean hasRuntimeEvents() {
        return !runtimeClasses.isEmpty();
    }

    /** The JVM runtime event families present ("gc", "park", ...), sorted. */
    public TreeSet<String> runtimeFamilies() {
        return new TreeSet<>(runtimeFamilies);
    }
}
