package dev.jetw.etw;

import dev.jetw.etl.TruncationMark;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A classic (MOF) ETW provider: a control GUID plus event-class GUIDs, writing instance events
 * (TraceEventInstance) with a level, an optional parent instance, and a payload.
 *
 * <p>The enable state arrives through the control callback ({@link EnableListener}) and is kept
 * in volatile fields, so {@link #isEnabled(int)} is a field read. Writes never throw: a dropped
 * event is counted, as ETW counts it.
 *
 * <p>Size limit: the payload is cut to {@link #maxPayloadBytes()} (the smaller of 64 KB and the
 * session buffer size less the headers). A cut event keeps its {@code Class.Version} (0, the MOF's
 * EventVersion: a decoder matches the two, so another version would not decode at all) and is
 * marked in its payload instead ({@link TruncationMark}, which is also the reader's test);
 * {@link #eventsTruncated()} counts them exactly.
 */
public final class ClassicProvider implements EnableListener, AutoCloseable {

    private final UUID controlGuid;
    private final List<UUID> eventClassGuids;
    private ProviderBackend backend;

    private volatile int enabledLevel;
    private volatile int enableFlags;
    private volatile long loggerHandle;
    private volatile boolean enabled;

    /**
     * The written-event counts of the scratches handed out (not the scratches: a caller that
     * never retires a scratch leaks a few bytes, not its buffers); see {@link #retire}.
     */
    private final Set<EventScratch.WrittenCount> counts = ConcurrentHashMap.newKeySet();
    /** Written events of retired scratches. */
    private final AtomicLong retiredWritten = new AtomicLong();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder truncated = new LongAdder();

    private ClassicProvider(UUID controlGuid, List<UUID> eventClassGuids) {
        this.controlGuid = controlGuid;
        this.eventClassGuids = eventClassGuids;
    }

    /** RegisterTraceGuids: the provider starts disabled until a session enables it. */
    public static ClassicProvider register(EtwBackend etw, UUID controlGuid, List<UUID> eventClassGuids)
            throws EtwException {
        ClassicProvider provider = new ClassicProvider(controlGuid, eventClassGuids);
        provider.backend = etw.registerProvider(controlGuid, eventClassGuids, provider);
        return provider;
    }

    public UUID controlGuid() { return controlGuid; }

    public List<UUID> eventClassGuids() { return eventClassGuids; }

    @Override
    public void onEnable(int level, int flags, long handle) {
        enableFlags = flags;
        loggerHandle = handle;
        // ETW: level 0 in an enable request means "all levels".
        enabledLevel = level == 0 ? 255 : level;
        enabled = true;
    }

    @Override
    public void onDisable() {
        enabled = false;
        enabledLevel = 0;
    }

    /** True when a session listens at {@code level} or above (TRACE_LEVEL_NONE events pass whenever enabled). */
    public boolean isEnabled(int level) {
        return level <= enabledLevel && enabled;
    }

    public boolean isEnabled() { return enabled; }

    public int enabledLevel() { return enabledLevel; }

    public int enableFlags() { return enableFlags; }

    public long loggerHandle() { return loggerHandle; }

    /** Per-thread scratch; make one per writing thread and keep it, and {@link #retire} it when the thread ends. */
    public EventScratch newScratch() {
        EventScratch s = backend.newScratch();
        counts.add(s.written);
        return s;
    }

    /**
     * Forgets a scratch whose thread has ended: its count stays in {@link #eventsWritten}, and the
     * backend hands on what it still holds (the portable backend's partly filled buffer).
     */
    public void retire(EventScratch scratch) {
        if (counts.remove(scratch.written)) {
            retiredWritten.addAndGet(scratch.written.value);
            backend.retire(scratch);
        }
    }

    public int newInstanceId(EventScratch scratch, int classIndex) {
        return backend.newInstanceId(scratch, classIndex);
    }

    public int maxPayloadBytes() {
        return backend.maxPayloadBytes();
    }

    /**
     * Writes one event; the payload is {@code scratch.payload()} up to its position.
     *
     * @param parentClassIndex -1 when there is no parent
     * @return true when the backend accepted it; false when it was dropped (and counted)
     */
    public boolean write(EventScratch scratch, int type, int level, int classIndex, int instanceId,
                         int parentClassIndex, int parentInstanceId) {
        cutToLimit(scratch);
        int code;
        try {
            code = backend.write(scratch, type, level, 0, classIndex, instanceId, parentClassIndex, parentInstanceId);
        } catch (RuntimeException e) {
            code = Win32Error.INVALID_PARAMETER;
        }
        return counted(scratch, code);
    }

    /**
     * Writes a record that must reach the file (a name record of the rundown), as {@link #write},
     * through the backend's reserved path ({@link ProviderBackend#writeReserved}). When the backend
     * has no free buffer (ERROR_NOT_ENOUGH_MEMORY or ERROR_OUTOFMEMORY) it tries again every millisecond for up to
     * {@code patienceNanos}: give 0 on an application thread, which must never wait, and some
     * patience on the agent's own threads. Only the final outcome is counted (written or dropped).
     */
    public boolean writeReserved(EventScratch scratch, int type, int level, int classIndex, int instanceId,
                                 int parentClassIndex, int parentInstanceId, long patienceNanos) {
        return writeReserved(scratch, type, level, 0, classIndex, instanceId, parentClassIndex, parentInstanceId,
                patienceNanos);
    }

    /** As {@link #writeReserved(EventScratch, int, int, int, int, int, int, long)} with the event's {@code version} (Class.Version). */
    public boolean writeReserved(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                                 int parentClassIndex, int parentInstanceId, long patienceNanos) {
        cutToLimit(scratch);
        long deadline = System.nanoTime() + patienceNanos;
        int code;
        for (;;) {
            try {
                code = backend.writeReserved(scratch, type, level, version, classIndex, instanceId, parentClassIndex,
                        parentInstanceId);
            } catch (RuntimeException e) {
                code = Win32Error.INVALID_PARAMETER;
            }
            if (!isOutOfBuffers(code) || System.nanoTime() - deadline >= 0 || !enabled) {
                return counted(scratch, code);
            }
            try {
                Thread.sleep(1); // the session's logger frees buffers as it writes them out
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return counted(scratch, code);
            }
        }
    }

    /**
     * TraceEvent's "no buffer now" refusals: ERROR_NOT_ENOUGH_MEMORY (the session ran out of free
     * buffers) and ERROR_OUTOFMEMORY (no memory to grow the pool); a later write may find one.
     */
    private static boolean isOutOfBuffers(int code) {
        return code == Win32Error.NOT_ENOUGH_MEMORY || code == Win32Error.OUTOFMEMORY;
    }

    /**
     * Writes one event whose payload is the low {@code length} bytes (0 to 8) of {@code payload},
     * little-endian: the fast path for the small events that are most of a trace, such as a START
     * carrying a method id. Eight bytes are under every session's size limit (buffers are at least
     * 4 KB), so nothing is ever cut. {@code scratch.payload()} is not read, but a backend may use
     * its memory: stage a payload for {@link #write} after a writeSmall, not before it.
     *
     * @return as {@link #write}; a {@code length} outside 0..8 is refused by the backend (counted as dropped)
     */
    public boolean writeSmall(EventScratch scratch, int type, int level, int classIndex, int instanceId,
                              int parentClassIndex, int parentInstanceId, long payload, int length) {
        int code;
        try {
            code = backend.writeSmall(scratch, type, level, 0, classIndex, instanceId, parentClassIndex,
                    parentInstanceId, payload, length);
        } catch (RuntimeException e) {
            code = Win32Error.INVALID_PARAMETER;
        }
        return counted(scratch, code);
    }

    /**
     * As {@link #write}, with the event's time given: {@code nanoTime} is a {@code System.nanoTime()}
     * reading (now or earlier, from any thread) that the backend converts into the session's clock.
     * For events written after the fact: a call's START written at its exit, a JVM runtime event.
     */
    public boolean writeAt(EventScratch scratch, long nanoTime, int type, int level, int classIndex, int instanceId,
                           int parentClassIndex, int parentInstanceId) {
        cutToLimit(scratch);
        int code;
        try {
            code = backend.writeAt(scratch, nanoTime, type, level, 0, classIndex, instanceId, parentClassIndex,
                    parentInstanceId);
        } catch (RuntimeException e) {
            code = Win32Error.INVALID_PARAMETER;
        }
        return counted(scratch, code);
    }

    /** As {@link #writeSmall}, with the event's time given as in {@link #writeAt}. */
    public boolean writeSmallAt(EventScratch scratch, long nanoTime, int type, int level, int classIndex,
                                int instanceId, int parentClassIndex, int parentInstanceId, long payload, int length) {
        int code;
        try {
            code = backend.writeSmallAt(scratch, nanoTime, type, level, 0, classIndex, instanceId, parentClassIndex,
                    parentInstanceId, payload, length);
        } catch (RuntimeException e) {
            code = Win32Error.INVALID_PARAMETER;
        }
        return counted(scratch, code);
    }

    /** Cuts a staged payload over the size limit and marks it as cut (the version stays the MOF's). */
    private void cutToLimit(EventScratch scratch) {
        int max = backend.maxPayloadBytes();
        if (scratch.payload().position() > max) {
            TruncationMark.cut(scratch.payload(), max & ~1); // whole UTF-16 units
            truncated.increment();
        }
    }

    /** Counts a write's outcome: written on the writing thread's own count, dropped on the shared one. */
    private boolean counted(EventScratch scratch, int code) {
        if (code == Win32Error.SUCCESS) {
            scratch.written.value++;
            return true;
        }
        dropped.increment();
        return false;
    }

    /** Events the backend accepted, over every scratch. */
    public long eventsWritten() {
        long sum = retiredWritten.get();
        for (EventScratch.WrittenCount c : counts) {
            sum += c.value;
        }
        return sum;
    }

    /** Events the backend refused (no free buffer, log full, stale handle, ...). */
    public long eventsDropped() { return dropped.sum(); }

    public long eventsTruncated() { return truncated.sum(); }

    /** UnregisterTraceGuids; the provider is disabled first so no write races the release. */
    @Override
    public void close() throws EtwException {
        onDisable();
        backend.unregister();
    }
}
