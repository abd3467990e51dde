package dev.jetw.analysis.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * Names and processes of kernel threads, from the kernel's own records: Thread Start/End/DCStart/DCEnd
 * (the process of every thread; the name from version 4 on) and Thread/SetName (a thread named or
 * renamed). These name the threads that are not Java threads, or that jetw's rundown does not name (GC,
 * JIT, a library's native spinner). Feed records in time order and the last name given wins; memory is
 * an entry per thread.
 */
public final class KernelThreadNames {

    private final Map<Long, String> names = new HashMap<>();
    private final Map<Long, Integer> processes = new HashMap<>();

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
        if (k.fields().containsKey("processId")) {
            processes.put(tid, k.processId());
        }
        String name = k.threadName();
        if (name != null) {
            names.put(tid, name);
        }
    }

    /** The name the kernel's records gave thread {@code tid}, or null. */
    public String name(long tid) {
        return names.get(tid);
    }

    /** The process of thread {@code tid} by the kernel's Thread records, or -1. */
    public int processId(long tid) {
        Integer p = processes.get(tid);
        return p == null ? -1 : p;
    }
}
