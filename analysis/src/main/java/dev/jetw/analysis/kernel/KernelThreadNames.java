package dev.jetw.analysis.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * Names and processes of kernel threads, from the kernel's own records: Thread Start/End/DCStart/DCEnd
 * (the process of every thread; the name from version 4 on) and Thread/SetName (a thread named or
 * renamed). These name the threads that are not Java threads, or that jetw's rundown does not name (GC,
 * JIT, a library's native spinner). Feed records in time order: {@link #name(long)} gives the last name given,
 * {@link #name(long, long)} the name as of a moment (a thread id reused later by another thread does not rename
 * the thread that had it then); memory is an entry per thread and change.
 */
public final class KernelThreadNames {

    private final Map<Long, Timeline<String>> names = new HashMap<>();
    private final Map<Long, Timeline<Integer>> processes = new HashMap<>();

    /** Takes what a kernel event says of a thread's name and process (other events are ignored). */
    public void accept(KernelEvent k) {
        if (k.kernelClass() != KernelClass.THREAD) {
            return;
        }
        int type = k.type();
        if (type < 1 || (type > 4 && type != 72)) {
            return;
        }
        long tid = k.threadId() & 0xFFFFFFFFL;
        long time = k.fileTime();
        if (k.fields().containsKey("processId")) {
            processes.computeIfAbsent(tid, x -> new Timeline<>()).put(time, k.processId());
        }
        String name = k.threadName();
        if (name != null) {
            names.computeIfAbsent(tid, x -> new Timeline<>()).put(time, name);
        }
    }

    /** The name the kernel's records gave thread {@code tid} last, or null. */
    public String name(long tid) {
        Timeline<String> t = names.get(tid);
        return t == null ? null : t.last();
    }

    /**
     * The name thread {@code tid} had at {@code fileTime} (the last given at or before it, else the first given
     * after it), or null.
     */
    public String name(long tid, long fileTime) {
        Timeline<String> t = names.get(tid);
        return t == null ? null : t.at(fileTime);
    }

    /** The process of thread {@code tid} by the kernel's Thread records (the last they gave), or -1. */
    public int processId(long tid) {
        Timeline<Integer> t = processes.get(tid);
        return t == null ? -1 : t.last();
    }

    /** The process of thread {@code tid} at {@code fileTime} (as {@link #name(long, long)}), or -1. */
    public int processId(long tid, long fileTime) {
        Timeline<Integer> t = processes.get(tid);
        return t == null ? -1 : t.at(fileTime);
    }
}
