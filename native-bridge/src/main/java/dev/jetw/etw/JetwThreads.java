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
    /**
     * OS thread ids of jetw threads that registered themselves, sorted, with the System.nanoTime() at which each
     * thread ended ({@link #unregisterCurrentOsThread}; Long.MAX_VALUE while it runs): read without a lock per
     * system call. An ended thread's id is kept so that its last calls, decoded later, are still jetw's, while a
     * later thread given the same id by the kernel is not.
     */
    private static volatile OsIds osIds = new OsIds(new int[0], new long[0]);
    /** Ended OS ids kept at most (the oldest end forgotten first): jetw ends few threads that registered one. */
    static final int ENDED_OS_IDS = 64;

    /** An immutable snapshot: ids sorted, and each id's end (parallel). */
    private static final class OsIds {
        final int[] tids;
        final long[] ends;

        OsIds(int[] tids, long[] ends) {
            this.tids = tids;
            this.ends = ends;
        }
    }

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
     * repository). Called first thing by the jetw threads that do file I/O, which call
     * {@link #unregisterCurrentOsThread} last; a no-op where the id cannot be read.
     */
    public static void registerCurrentOsThread() {
        setOsEnd(OsThreadId.current(), Long.MAX_VALUE);
    }

    /**
     * The calling thread, registered by {@link #registerCurrentOsThread}, ends: its system calls until now stay
     * jetw's; the kernel may give its id to an application thread later, whose calls are then the application's.
     */
    public static void unregisterCurrentOsThread() {
        setOsEnd(OsThreadId.current(), System.nanoTime());
    }

    private static void setOsEnd(int tid, long end) {
        if (tid <= 0) {
            return;
        }
        synchronized (JetwThreads.class) {
            OsIds now = osIds;
            java.util.TreeMap<Integer, Long> m = new java.util.TreeMap<Integer, Long>();
            for (int i = 0; i < now.tids.length; i++) {
                m.put(now.tids[i], now.ends[i]);
            }
            m.put(tid, end);
            while (endedCount(m) > ENDED_OS_IDS) {
                m.remove(earliestEnded(m));
            }
            int[] tids = new int[m.size()];
            long[] ends = new long[m.size()];
            int i = 0;
            for (java.util.Map.Entry<Integer, Long> e : m.entrySet()) {
                tids[i] = e.getKey();
                ends[i++] = e.getValue();
            }
            osIds = new OsIds(tids, ends);
        }
    }

    private static int endedCount(java.util.Map<Integer, Long> m) {
        int n = 0;
        for (long end : m.values()) {
            n += end == Long.MAX_VALUE ? 0 : 1;
        }
        return n;
    }

    private static int earliestEnded(java.util.Map<Integer, Long> m) {
        int tid = 0;
        long earliest = Long.MAX_VALUE;
        for (java.util.Map.Entry<Integer, Long> e : m.entrySet()) {
            if (e.getValue() < earliest) {
                earliest = e.getValue();
                tid = e.getKey();
            }
        }
        return tid;
    }

    /**
     * True when the OS thread {@code tid} was one of jetw's at {@code monotonicNanos} (System.nanoTime()'s clock,
     * the kernel collector's): registered ({@link #registerCurrentOsThread}) and not ended before that time.
     */
    public static boolean isJetwOsThread(int tid, long monotonicNanos) {
        OsIds now = osIds;
        int i = Arrays.binarySearch(now.tids, tid);
        return i >= 0 && monotonicNanos <= now.ends[i];
    }

    /** True when the thread with Java id {@code javaThreadId} is one jetw registered. */
    public static boolean isJetw(long javaThreadId) {
        return Arrays.binarySearch(sorted, javaThreadId) >= 0;
    }
}
