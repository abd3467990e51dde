package dev.jetw.etw;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The threads jetw itself runs inside a JVM it traces (the session's logger, the kernel collector's
 * pollers, the agent's control channel, rundown, remover, JFR starter and consumer, ...), each registered
 * where it is created, so that what jetw records about the JVM leaves them out (agent/core's runtime
 * events: a JFR park of the logger is jetw's noise, not the application's).
 *
 * <p>By identity, never by name: an application may name its threads "jetw-..." too. The key is the
 * Java thread id, which the JVM hands out once and never again, and which JFR's events carry; an id
 * stays here after its thread ended (JFR delivers a thread's last events up to a second or so later).
 * At most {@link #CAPACITY} ids are kept, the oldest registered going first; jetw starts a handful of
 * long-lived threads and one short one per control request, so in practice none is forgotten.
 */
public final class JetwThreads {

    static final int CAPACITY = 1024;

    /** Registered ids, oldest first (registration only, under the class lock). */
    private static final ArrayDeque<Long> REGISTERED = new ArrayDeque<Long>();
    /**
     * The same ids sorted, republished at each registration: {@link #isJetw} runs for every JVM runtime event
     * on JFR's consumer thread, so it reads this without a lock and without boxing; registrations are rare.
     */
    private static volatile long[] sorted = new long[0];
    /** OS thread ids of jetw threads that registered themselves, sorted (read without a lock per system call). */
    private static volatile int[] osSorted = new int[0];

    private JetwThreads() {
    }

    /** Marks {@code thread} (created, not necessarily started) as one of jetw's; returns it. */
    public static Thread register(Thread thread) {
        synchronized (JetwThreads.class) {
            REGISTERED.addLast(thread.getId());
            if (REGISTERED.size() > CAPACITY) {
                REGISTERED.removeFirst();
            }
            long[] ids = new long[REGISTERED.size()];
            int i = 0;
            for (long id : REGISTERED) {
                ids[i++] = id;
            }
            Arrays.sort(ids);
            sorted = ids;
        }
        return thread;
    }

    /**
     * Marks the calling thread, one of jetw's, by its OS thread id too ({@link OsThreadId}), so that the Linux kernel
     * collector leaves its system calls out (the session's logger writes the trace file; the JFR consumer reads its
     * repository). Called first thing by the jetw threads that do file I/O; a no-op where the id cannot be read.
     */
    public static void registerCurrentOsThread() {
        int tid = OsThreadId.current();
        if (tid <= 0) {
            return;
        }
        synchronized (JetwThreads.class) {
            int[] ids = Arrays.copyOf(osSorted, osSorted.length + 1);
            ids[ids.length - 1] = tid;
            Arrays.sort(ids);
            osSorted = ids; // a handful: only jetw's long-lived threads that do file I/O call this
        }
    }

    /** True when the OS thread {@code tid} registered itself as one of jetw's ({@link #registerCurrentOsThread}). */
    public static boolean isJetwOsThread(int tid) {
        return Arrays.binarySearch(osSorted, tid) >= 0;
    }

    /** True when the thread with Java id {@code javaThreadId} is one jetw registered. */
    public static boolean isJetw(long javaThreadId) {
        return Arrays.binarySearch(sorted, javaThreadId) >= 0;
    }
}
