package dev.jetw.etw;

import java.util.LinkedHashMap;
import java.util.Map;

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

    private static final Map<Long, Boolean> IDS = new LinkedHashMap<Long, Boolean>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };

    private JetwThreads() {
    }

    /** Marks {@code thread} (created, not necessarily started) as one of jetw's; returns it. */
    public static Thread register(Thread thread) {
        synchronized (IDS) {
            IDS.put(thread.getId(), Boolean.TRUE);
        }
        return thread;
    }

    /** True when the thread with Java id {@code javaThreadId} is one jetw registered. */
    public static boolean isJetw(long javaThreadId) {
        synchronized (IDS) {
            return IDS.containsKey(javaThreadId);
        }
    }
}
