package dev.jetw.analysis.why;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The threads with jetw calls, and the kernel (OS) thread id of each, so that a kernel event about an OS
 * thread (a context switch, the thread that readied another) finds the thread of jetw's records: the same
 * id in a Windows file, a Java thread id in a portable-backend file ({@link ThreadIds#kernelThreadId}).
 * Memory: an entry per thread.
 */
public final class TracedThreads {

    private final Set<Long> threads = new HashSet<>();
    private final Map<Long, Long> byKernelId = new HashMap<>();

    /** A thread with jetw calls: header thread id {@code headerTid} of process {@code pid}. */
    public void add(int pid, int headerTid) {
        threads.add(key(pid, headerTid));
    }

    /** Learns the kernel id of every thread added, by the file's numbering (call after the pass that added them). */
    public void resolve(ThreadIds ids) {
        byKernelId.clear();
        for (long k : threads) {
            long kernel = ids.kernelThreadId(processOf(k), headerOf(k));
            if (kernel > 0) {
                byKernelId.put(kernel, k);
            }
        }
    }

    /** The jetw thread whose OS id is {@code kernelTid}: (process id << 32 | header thread id), or -1. */
    public long ofKernelThread(long kernelTid) {
        Long k = byKernelId.get(kernelTid);
        return k == null ? -1 : k;
    }

    public boolean isEmpty() {
        return threads.isEmpty();
    }

    /** The processes of the threads with jetw calls. */
    public Set<Integer> processes() {
        Set<Integer> out = new HashSet<>();
        for (long k : threads) {
            out.add(processOf(k));
        }
        return out;
    }

    public static long key(int pid, int headerTid) {
        return (long) pid << 32 | (headerTid & 0xFFFFFFFFL);
    }

    public static int processOf(long key) {
        return (int) (key >>> 32);
    }

    public static int headerOf(long key) {
        return (int) key;
    }
}
