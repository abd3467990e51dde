package dev.jetw.analysis.cli;

import dev.jetw.analysis.kernel.KernelThreadNames;
import dev.jetw.analysis.why.TracedThreads;

/**
 * Names of threads known by their kernel (OS) id, whatever named them: jetw's Thread rundown (a thread
 * with jetw calls, found through {@link TracedThreads}), the JVM's thread events (by OS id), the kernel's
 * Thread records (version 4 ThreadName, Thread/SetName), in that order. The last names threads that are
 * not Java threads, or that jetw does not trace: GC, JIT, a library's native spinner.
 */
final class ThreadLabels {

    private final JetwNames names;
    private final KernelThreadNames kernel;
    private final TracedThreads traced;

    ThreadLabels(JetwNames names, KernelThreadNames kernel, TracedThreads traced) {
        this.names = names;
        this.kernel = kernel;
        this.traced = traced;
    }

    /** The name of kernel thread {@code tid} ({@code pid}: its process, -1 when unknown), or null. */
    String name(long tid, int pid) {
        return name(tid, pid, Long.MAX_VALUE);
    }

    /**
     * The name of kernel thread {@code tid} as of {@code fileTime} ({@code pid}: its process, -1 when unknown), or
     * null: the kernel's records are asked for the name it had then (its id may be another thread's later).
     */
    String name(long tid, int pid, long fileTime) {
        if (tid <= 0) {
            return null;
        }
        long t = traced.ofKernelThread(tid);
        String n = t >= 0 ? names.thread(TracedThreads.processOf(t), TracedThreads.headerOf(t)) : null;
        if (n == null) {
            n = names.threadByOsId(pid >= 0 ? pid : kernel.processId(tid, fileTime), tid);
        }
        return n != null ? n : kernel.name(tid, fileTime);
    }

    /** "thread "holder" (tid 1234)", "thread (tid 99)", "an interrupt or idle CPU" (0), "a thread the record does not name" (-1). */
    String waker(long tid, int pid) {
        return waker(tid, pid, Long.MAX_VALUE);
    }

    /** As {@link #waker(long, int)}, named as of {@code fileTime} ({@link #name(long, int, long)}). */
    String waker(long tid, int pid, long fileTime) {
        if (tid == 0) {
            return "an interrupt or idle CPU";
        }
        if (tid < 0) {
            return "a thread the record does not name";
        }
        String n = name(tid, pid, fileTime);
        return "thread " + (n != null ? "\"" + n + "\" " : "") + "(tid " + tid + ")";
    }

    /** The name of a viewer's thread track: jetw's name for header thread {@code tid}, else a kernel thread's name, or null. */
    String track(int pid, int tid) {
        String n = names.thread(pid, tid);
        return n != null ? n : name(tid & 0xFFFFFFFFL, pid);
    }
}
