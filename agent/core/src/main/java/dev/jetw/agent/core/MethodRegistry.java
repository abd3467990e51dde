package dev.jetw.agent.core;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Method ids: assigned when a method is selected for instrumentation (never on the hot path),
 * baked into its advice as a constant, and named once in the trace by a Method DC_START rundown.
 * Ids start at 1 (0 means "no method" in a CHECKPOINT payload). The level of each method is in a
 * fixed array sized by maxMethods, so the hot path reads it without a lookup.
 */
final class MethodRegistry {

    /** One registered method, as the rundown names it. */
    static final class Entry {
        final int id;
        final String className;
        final String methodName;
        final String descriptor;

        Entry(int id, String className, String methodName, String descriptor) {
            this.id = id;
            this.className = className;
            this.methodName = methodName;
            this.descriptor = descriptor;
        }
    }

    private final int maxMethods;
    /** Index = method id. Written before the method's class is (re)transformed, read by the advice. */
    final byte[] levels;
    /** Index = method id: calls shorter than this many nanoseconds are not written (0: every call). Written like levels. */
    final long[] thresholds;
    private final Entry[] entries;
    /** Index = method id: true once the method's advice is to be left out when its class is (re)transformed. */
    private final boolean[] uninstrumented;
    private final Map<String, Integer> ids = new HashMap<>();
    private int count;
    private boolean fullReported;
    /** Methods registered but not yet named by a DC_START. */
    private final ConcurrentLinkedQueue<Entry> pendingRundown = new ConcurrentLinkedQueue<>();

    MethodRegistry(int maxMethods) {
        this.maxMethods = maxMethods;
        this.levels = new byte[maxMethods + 1];
        this.thresholds = new long[maxMethods + 1];
        this.entries = new Entry[maxMethods + 1];
        this.uninstrumented = new boolean[maxMethods + 1];
    }

    /**
     * Registers a method (idempotent for the same class, name and descriptor).
     *
     * @return its id, or 0 when the maxMethods guard is reached
     */
    synchronized int register(String className, String methodName, String descriptor, int level, long thresholdNanos) {
        String key = key(className, methodName, descriptor);
        Integer known = ids.get(key);
        if (known != null) {
            return known;
        }
        if (count >= maxMethods) {
            if (!fullReported) {
                fullReported = true;
                System.err.println("jetw: warning: maxMethods=" + maxMethods + " reached; " + className + "." + methodName
                        + " and further methods are not instrumented (raise maxMethods or narrow include)");
            }
            return 0;
        }
        int id = ++count;
        levels[id] = (byte) level;
        thresholds[id] = thresholdNanos;
        Entry e = new Entry(id, className, methodName, descriptor);
        entries[id] = e;
        ids.put(key, id);
        pendingRundown.add(e);
        return id;
    }

    /** The id of a registered method, 0 if none. */
    synchronized int idOf(String className, String methodName, String descriptor) {
        Integer id = ids.get(key(className, methodName, descriptor));
        return id == null ? 0 : id;
    }

    /** From now on a (re)transformation of {@code id}'s class leaves the method without advice. */
    synchronized void uninstrument(int id) {
        uninstrumented[id] = true;
    }

    /** True for a method whose advice is to be left out (adaptive exclusion removed it). */
    synchronized boolean isUninstrumented(int id) {
        return uninstrumented[id];
    }

    synchronized int count() {
        return count;
    }

    synchronized boolean guardReached() {
        return fullReported;
    }

    synchronized Entry entry(int id) {
        return id > 0 && id <= count ? entries[id] : null;
    }

    /** Next method still waiting for its DC_START, or null. */
    Entry pollPendingRundown() {
        return pendingRundown.poll();
    }

    private static String key(String className, String methodName, String descriptor) {
        return className + '.' + methodName + descriptor;
    }
}
