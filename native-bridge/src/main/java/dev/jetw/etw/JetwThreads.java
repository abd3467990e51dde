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

    /** True when the thread with Java id {@code javaThreadId} is one jetw registered. */
    public static boolean isJetw(long javaThreadId) {
        return Arrays.binarySearch(sorted, javaThreadId) >= 0;
    }
}
