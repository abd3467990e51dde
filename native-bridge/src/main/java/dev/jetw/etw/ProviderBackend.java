package dev.jetw.etw;

import java.nio.ByteBuffer;

/**
 * A registered classic provider, as a backend implements it. {@link ClassicProvider} wraps it with
 * the enable check, the size limit and loss accounting.
 *
 * <p>The per-event methods allocate nothing: each writing thread owns an {@link EventScratch}
 * made once by {@link #newScratch()}.
 */
public interface ProviderBackend {

    /** Per-thread scratch memory for headers, instance info and the payload. */
    EventScratch newScratch();

    /**
     * The thread that used {@code scratch} has ended: whatever the scratch still holds (a partly
     * filled session buffer) goes to the session now rather than at the next flush.
     */
    default void retire(EventScratch scratch) {
    }

    /** A new instance id for an invocation of event class {@code classIndex} (CreateTraceInstanceId). */
    int newInstanceId(EventScratch scratch, int classIndex);

    /**
     * Writes one event. With {@code instanceId != 0} it is an instance event (TraceEventInstance:
     * an EVENT_INSTANCE_GUID_HEADER record, 0x15, in the file); with {@code instanceId == 0} a plain
     * event (TraceEvent: EVENT_TRACE_HEADER record, 0x14) of class {@code classIndex}. The payload
     * is {@code scratch.payload()} from 0 to its position.
     *
     * @param parentClassIndex the parent's event class, or -1 when the event has no parent
     * @return 0 (ERROR_SUCCESS) or the Win32 code of the drop (8, 14, 234, 1502, ...)
     */
    int write(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
              int parentClassIndex, int parentInstanceId);

    /**
     * Writes one event, as {@link #write}, whose payload is the low {@code length} bytes (0 to 8)
     * of {@code payload}, little-endian, instead of {@code scratch.payload()}: the agent's START and
     * plain END events, which are most events. Staging a few bytes in a {@code ByteBuffer} and
     * reading them back cost more than encoding the whole record, so the real backends take the
     * word straight into their record. This default stages it and calls {@link #write}.
     *
     * @return as {@link #write}; ERROR_INVALID_PARAMETER (87) for a {@code length} outside 0..8
     *         ({@link #isSmallPayloadLength}), which every implementation must refuse
     */
    default int writeSmall(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                           int parentClassIndex, int parentInstanceId, long payload, int length) {
        if (!isSmallPayloadLength(length)) {
            return Win32Error.INVALID_PARAMETER;
        }
        ByteBuffer p = scratch.payload(8);
        p.putLong(payload);
        p.position(length);
        return write(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId);
    }

    /**
     * Writes one event, as {@link #write}, that must not compete with the event stream for buffers:
     * the agent's name records (method and thread rundown), without which a trace's ids mean
     * nothing. A backend that can set space aside for them (the portable one) overrides this and
     * does not drop them for want of a free buffer; this default is an ordinary {@link #write},
     * whose ERROR_NOT_ENOUGH_MEMORY {@link ClassicProvider#writeReserved} answers by waiting and
     * retrying (ETW has no reserved buffers for a provider). Never waits itself.
     */
    default int writeReserved(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                              int parentClassIndex, int parentInstanceId) {
        return write(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId);
    }

    /**
     * Writes one event, as {@link #write}, whose time stamp is {@code nanoTime}, a
     * {@code System.nanoTime()} reading taken earlier (or now) on any thread, converted into the
     * session's clock, instead of the time of this call: a call's START written at its exit, or a
     * JVM event reported after the fact. Records written this way are not in time order in the
     * buffer. The portable backend converts through its session clock; the Windows backend sets
     * WNODE_FLAG_USE_TIMESTAMP and the TimeStamp in the session's clock (docs/windows-backend.md).
     *
     * @return as {@link #write}; this default, for a backend that cannot set an event's time, refuses
     *         with ERROR_NOT_SUPPORTED (counted as dropped) rather than writing a wrong time
     */
    default int writeAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                        int instanceId, int parentClassIndex, int parentInstanceId) {
        return Win32Error.NOT_SUPPORTED;
    }

    /** {@link #writeSmall} with the time stamp of {@link #writeAt}; the default refuses as {@link #writeAt}'s does. */
    default int writeSmallAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                             int instanceId, int parentClassIndex, int parentInstanceId, long payload, int length) {
        return Win32Error.NOT_SUPPORTED;
    }

    /** True for the payload lengths {@link #writeSmall} takes: 0 to 8, the bytes of one {@code long}. */
    static boolean isSmallPayloadLength(int length) {
        return length >= 0 && length <= 8;
    }

    /** Largest payload in bytes that {@link #write} accepts for the session the provider logs to. */
    int maxPayloadBytes();

    /** UnregisterTraceGuids. Idempotent. */
    void unregister() throws EtwException;
}
