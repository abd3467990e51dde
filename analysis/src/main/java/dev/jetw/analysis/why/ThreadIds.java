package dev.jetw.analysis.why;

import java.util.HashMap;
import java.util.Map;

/**
 * Which thread a call ran on, in the three numberings a trace mixes: the header thread id of jetw's
 * records (the OS thread id on Windows; the Java thread id in files of the portable backend), the
 * subject of JVM runtime events (both: {@code u64 OsThreadId, u64 JavaThreadId}, from JFR) and the
 * kernel's thread ids (OS ids). The one place that knows how they map.
 *
 * <p>It learns from two kinds of event: a jetw Thread DC_START is written by the thread it names, so
 * its header id and its payload's Java id are the same thread, and from version 1 on it carries the OS
 * id the thread read itself (exact, for every thread that wrote an event; 0 for a virtual thread, which
 * has no OS thread of its own: its carrier's kernel states are never its own); a JVM runtime event's
 * subject gives a Java id with its OS id (for threads of version-0 files). A file is taken to number
 * headers by Java id when every Thread DC_START in it has header id = Java id (the portable backend); a
 * Windows file's headers carry OS ids, which a Java id would equal only by chance, not for every thread.
 */
public final class ThreadIds {

    private final Map<Long, Long> javaIdOfHeader = new HashMap<>();
    private final Map<Long, Long> osIdOfJava = new HashMap<>();
    /** Java ids whose rundown says they have no OS thread of their own (virtual threads). */
    private final java.util.Set<Long> withoutOsThread = new java.util.HashSet<>();
    private int threadStarts;
    private int headerIsJavaId;

    /**
     * A jetw Thread DC_START: written by the thread with header id {@code headerTid} and Java id {@code javaId};
     * {@code osId} its OS thread id (version 1), 0 when it has none (a virtual thread), -1 when the record does
     * not say (version 0).
     */
    public void threadStart(int pid, int headerTid, long javaId, long osId) {
        javaIdOfHeader.put(key(pid, headerTid), javaId);
        if (osId > 0) {
            osIdOfJava.put(key(pid, javaId), osId);
        } else if (osId == 0) {
            withoutOsThread.add(key(pid, javaId));
        }
        threadStarts++;
        if ((headerTid & 0xFFFFFFFFL) == javaId) {
            headerIsJavaId++;
        }
    }

    /** A JVM runtime event's subject thread (the rundown's own OS id, where it gave one, wins). */
    public void subject(int pid, long osId, long javaId) {
        if (osId > 0 && javaId != 0) {
            osIdOfJava.putIfAbsent(key(pid, javaId), osId);
        }
    }

    /** True when the header ids of this file's jetw records are Java thread ids (portable backend). */
    public boolean headersAreJavaIds() {
        return threadStarts > 0 && headerIsJavaId == threadStarts;
    }

    /**
     * The kernel (OS) thread id of a call's thread, or -1 when the trace does not say or the thread has none
     * of its own (a virtual thread: see {@link #hasNoOsThread}).
     */
    public long kernelThreadId(int pid, int headerTid) {
        if (!headersAreJavaIds()) {
            return headerTid & 0xFFFFFFFFL;
        }
        long java = headerTid & 0xFFFFFFFFL;
        if (withoutOsThread.contains(key(pid, java))) {
            return -1;
        }
        Long os = osIdOfJava.get(key(pid, java));
        return os == null ? -1 : os;
    }

    /** True when the call thread's rundown says it has no OS thread of its own: a virtual thread. */
    public boolean hasNoOsThread(int pid, int headerTid) {
        return headersAreJavaIds() && withoutOsThread.contains(key(pid, headerTid & 0xFFFFFFFFL));
    }

    /**
     * The header thread id a runtime event's subject ({@code osId}, {@code javaId}) goes by in this file: its Java id
     * where headers are Java ids (the portable backend), its OS id elsewhere (Windows headers; or a subject whose
     * Java id is unknown). For a subject that wrote no call of its own, so that its track is numbered as every other.
     */
    public long headerIdOf(long osId, long javaId) {
        return headersAreJavaIds() && javaId != 0 ? javaId : osId;
    }

    /** True when a JVM runtime event whose subject is ({@code osId}, {@code javaId}) concerns the call thread {@code headerTid}. */
    public boolean isSubject(int pid, int headerTid, long osId, long javaId) {
        long header = headerTid & 0xFFFFFFFFL;
        Long java = javaIdOfHeader.get(key(pid, header));
        if (java != null && javaId != 0) {
            return javaId == java;
        }
        if (headersAreJavaIds()) {
            return javaId == header;
        }
        if (threadStarts > 0) {
            return osId == header;
        }
        return osId == header || javaId == header; // no Thread rundown at all: either numbering may be meant
    }

    private static long key(int pid, long id) {
        return (long) pid << 40 ^ id;
    }
}
