package dev.jetw.etl;

import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * One record of an .etl file, of any header type. Fields a header type does not carry are 0 / null
 * (and -1 for {@link #group()}, {@link #threadId()} and {@link #processId()}).
 *
 * <ul>
 * <li>SYSTEM / COMPACT (0x01-0x04): {@link #group()}, {@link #type()} (Packet.Type), {@link #version()}
 *     (the header's Version word), tid, pid; the GUID is EventTraceGuid for group 0, else null.</li>
 * <li>PERFINFO (0x10/0x11): group and type (the HookId), no tid/pid.</li>
 * <li>FULL (0x0A/0x14) and INSTANCE (0x0B/0x15): class GUID, Class.Type/Level/Version, tid, pid; instance
 *     records also {@link #instanceId()}, {@link #parentInstanceId()}, {@link #parentGuid()}.</li>
 * <li>EVENT_HEADER (0x12/0x13): provider GUID, descriptor (id, version, channel, level, opcode as
 *     {@link #type()}, task, keyword), flags, property, activity id, extended items.</li>
 * </ul>
 */
public final class EtlRecord {

    int headerType;
    int markerFlags;
    int size;
    long fileOffset;
    int bufferIndex;
    int processor;
    int group = -1;
    int type;
    int level;
    int version;
    int eventId;
    int channel;
    int task;
    long keyword;
    int flags;
    int eventProperty;
    int threadId = -1;
    int processId = -1;
    long rawTimestamp;
    long fileTime;
    UUID guid;
    UUID activityId;
    int instanceId;
    int parentInstanceId;
    UUID parentGuid;
    List<EtlExtendedItem> extendedItems = Collections.emptyList();
    byte[] userData = new byte[0];

    EtlRecord() {
    }

    /** Byte 2 of the marker (EtlFormat.HT_*). */
    public int headerType() {
        return headerType;
    }

    public String headerTypeName() {
        return EtlHeaderTypes.name(headerType);
    }

    /** Byte 3 of the marker (0xC0 for every type the reader decodes). */
    public int markerFlags() {
        return markerFlags;
    }

    /** Record size in bytes (header + data, without the padding to 8). */
    public int size() {
        return size;
    }

    public long fileOffset() {
        return fileOffset;
    }

    /** Index in the file of the buffer that holds the record. */
    public int bufferIndex() {
        return bufferIndex;
    }

    /**
     * The processor of the record: its buffer's ClientContext.ProcessorIndex (WMI_BUFFER_HEADER 0x28), which
     * a consumer of ETW gets as EVENT_RECORD.BufferContext.ProcessorIndex. ETW keeps a buffer per CPU and
     * a record goes to the buffer of the CPU it was logged on, so for a kernel record this is the CPU the
     * event happened on (a Thread/CSwitch carries no CPU in its payload: this is the CPU that switched).
     * Below the logfile header's NumberOfProcessors in every file the reader accepts as written by Windows.
     *
     * <p>Where buffers are not per CPU the value names no CPU: a session in
     * EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING mode (LogFileMode 0x10000000) shares its buffers across CPUs
     * (see {@link EtlLogfileInfo#logFileMode()}); the header buffer of every file says 0; the portable
     * backend's buffers of jetw's own events say 0 (its kernel records are in per-CPU buffers, as ETW's).
     * None of the Windows-written samples is in that mode: their buffers name several CPUs each
     * (etl-samples/README.md).
     */
    public int processor() {
        return processor;
    }

    /** Event group of a SYSTEM, COMPACT or PERFINFO record (the HookId's high byte); -1 otherwise. */
    public int group() {
        return group;
    }

    /** Class.Type of classic records, Packet.Type of SYSTEM records, the opcode of EVENT_HEADER records. */
    public int type() {
        return type;
    }

    /** Alias of {@link #type()} for EVENT_HEADER records. */
    public int opcode() {
        return type;
    }

    public int level() {
        return level;
    }

    /** Class.Version, EventDescriptor.Version, or a SYSTEM header's Version word. */
    public int version() {
        return version;
    }

    /** EventDescriptor.Id (EVENT_HEADER records). */
    public int eventId() {
        return eventId;
    }

    public int channel() {
        return channel;
    }

    public int task() {
        return task;
    }

    public long keyword() {
        return keyword;
    }

    /** EVENT_HEADER.Flags (EVENT_HEADER_FLAG_*). */
    public int flags() {
        return flags;
    }

    public int eventProperty() {
        return eventProperty;
    }

    public int threadId() {
        return threadId;
    }

    public int processId() {
        return processId;
    }

    /** The time stamp as stored (unit per the logfile header's clock type). */
    public long rawTimestamp() {
        return rawTimestamp;
    }

    /** Absolute FILETIME (100 ns since 1601 UTC), by {@link TimestampConverter}. */
    public long fileTime() {
        return fileTime;
    }

    public java.time.Instant instant() {
        return TimestampConverter.fileTimeToInstant(fileTime);
    }

    /** Provider GUID (EVENT_HEADER), class GUID (classic), EventTraceGuid (SYSTEM group 0); may be null. */
    public UUID guid() {
        return guid;
    }

    public UUID activityId() {
        return activityId;
    }

    public int instanceId() {
        return instanceId;
    }

    public int parentInstanceId() {
        return parentInstanceId;
    }

    public UUID parentGuid() {
        return parentGuid;
    }

    public List<EtlExtendedItem> extendedItems() {
        return extendedItems;
    }

    /** The payload: the bytes after the header (and after the extended items of an EVENT_HEADER record). */
    public byte[] userData() {
        return userData;
    }

    public boolean isInstanceEvent() {
        return headerType == EtlFormat.HT_INSTANCE64 || headerType == EtlFormat.HT_INSTANCE32;
    }

    /** The logfile-header record (SYSTEM header, group 0, type 0): the file's header, not an event. */
    public boolean isLogfileHeader() {
        return (headerType == EtlFormat.HT_SYSTEM64 || headerType == EtlFormat.HT_SYSTEM32) && group == 0 && type == 0
                && fileOffset == EtlFormat.BUFFER_HEADER_SIZE;
    }

    /** Provider name from a PROV_TRAITS item (TraceLogging), or null. */
    public String providerName() {
        for (EtlExtendedItem item : extendedItems) {
            String n = item.providerName();
            if (n != null) {
                return n;
            }
        }
        return null;
    }

    /** Event name from an EVENT_SCHEMA_TL item (TraceLogging), or null. */
    public String eventName() {
        for (EtlExtendedItem item : extendedItems) {
            String n = item.traceLoggingEventName();
            if (n != null) {
                return n;
            }
        }
        return null;
    }
}
