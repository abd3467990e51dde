package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlRecord;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A kernel record (SYSTEM / COMPACT / PERFINFO header) seen as an event of its MOF class: the class
 * from the HookId's group, the event name from its type, and the payload fields decoded per
 * Microsoft's documented class layout for the record's version ({@link KernelDecoder}).
 *
 * <p>Field names are the MOF property names in lower camel case ({@code newThreadId},
 * {@code transferSize}, {@code fileName}). Integers are {@link Long}, strings {@link String}, a stack
 * is a {@code long[]}. A field the record does not carry is absent: typed accessors then return -1
 * or null. {@link #decodeNote()} says why fields are missing (an undocumented version, a payload
 * shorter than the class).
 */
public final class KernelEvent {

    private final EtlRecord record;
    private final KernelClass kernelClass;
    private final String eventName;
    private final Map<String, Object> fields;
    private final Set<String> addresses;
    private final String decodeNote;

    KernelEvent(EtlRecord record, KernelClass kernelClass, String eventName, Map<String, Object> fields,
                Set<String> addresses, String decodeNote) {
        this.record = record;
        this.kernelClass = kernelClass;
        this.eventName = eventName;
        this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        this.addresses = Collections.unmodifiableSet(new HashSet<>(addresses));
        this.decodeNote = decodeNote;
    }

    /** True for fields that hold addresses (pointers, kernel object keys), best shown in hex. */
    public boolean isAddress(String field) {
        return addresses.contains(field);
    }

    public EtlRecord record() {
        return record;
    }

    public KernelClass kernelClass() {
        return kernelClass;
    }

    /** "CSwitch", "Read", or "type N" for an undocumented type. */
    public String eventName() {
        return eventName;
    }

    /** "Thread/CSwitch". */
    public String fullName() {
        return kernelClass.displayName() + "/" + eventName;
    }

    /** The record's event type (opcode). */
    public int type() {
        return record.type();
    }

    /** The MOF class version: the low byte of the header's Version word. */
    public int version() {
        return record.version() & 0xFF;
    }

    /** The decoded payload fields, in payload order. */
    public Map<String, Object> fields() {
        return fields;
    }

    /** Why some or all fields are not decoded, or null when the payload decoded as documented. */
    public String decodeNote() {
        return decodeNote;
    }

    /** A numeric field, or -1 when absent. */
    public long number(String field) {
        return FieldValues.number(fields, field);
    }

    /** A string field, or null when absent. */
    public String text(String field) {
        return FieldValues.text(fields, field);
    }

    /** Raw time stamp of the record (clock units of the file; see TimestampConverter). */
    public long rawTimestamp() {
        return record.rawTimestamp();
    }

    /** Absolute time (FILETIME, 100 ns since 1601 UTC). */
    public long fileTime() {
        return record.fileTime();
    }

    /**
     * The thread the event is about: Thread start/end TThreadId, CSwitch's new thread, ReadyThread's
     * readied thread, DiskIo's issuing thread, FileIo's TTID, HardFault's and SampledProfile's thread,
     * StackWalk's thread; else the record header's thread id (-1 for PERFINFO records, which have none).
     */
    public int threadId() {
        for (String f : new String[]{"tThreadId", "newThreadId", "issuingThreadId", "ttid", "threadId", "stackThread"}) {
            if (fields.containsKey(f)) {
                return (int) number(f);
            }
        }
        return record.threadId();
    }

    /**
     * The process the event is about (Process/Thread/Image/service ProcessId, StackWalk's process, TcpIp and
     * UdpIp's PID), else the header's pid.
     */
    public int processId() {
        for (String f : new String[]{"processId", "stackProcess", "pid"}) {
            if (fields.containsKey(f)) {
                return (int) number(f);
            }
        }
        return record.processId();
    }

    /** CSwitch: the thread switched in; -1 otherwise. */
    public int newThreadId() {
        return (int) number("newThreadId");
    }

    /** CSwitch: the thread switched out; -1 otherwise. */
    public int oldThreadId() {
        return (int) number("oldThreadId");
    }

    /** CSwitch: why the old thread waits (KWAIT_REASON, e.g. 0 Executive, 5 Suspended, 6 UserRequest); -1 otherwise. */
    public int oldThreadWaitReason() {
        return (int) number("oldThreadWaitReason");
    }

    /** CSwitch: the old thread's state (KTHREAD_STATE, e.g. 2 Running, 5 Waiting); -1 otherwise. */
    public int oldThreadState() {
        return (int) number("oldThreadState");
    }

    /** CSwitch: how long the new thread waited, in clock ticks of the trace; -1 otherwise. */
    public long newThreadWaitTime() {
        return number("newThreadWaitTime");
    }

    /** DiskIo read/write: bytes transferred; FileIo read/write: IoSize; -1 otherwise. */
    public long size() {
        long s = number("transferSize");
        return s >= 0 ? s : number("ioSize");
    }

    /** DiskIo read/write and FileIo read/write: byte offset; HardFault: ReadOffset; -1 otherwise. */
    public long byteOffset() {
        long o = number("byteOffset");
        if (o >= 0) {
            return o;
        }
        o = number("offset");
        return o >= 0 ? o : number("readOffset");
    }

    /** DiskIo completion: HighResResponseTime, the I/O's duration in clock ticks of the trace; -1 otherwise. */
    public long elapsedTicks() {
        return number("highResResponseTime");
    }

    /** FileIo names and creates, Image events: the file name; null otherwise. */
    public String fileName() {
        String n = text("fileName");
        return n != null ? n : text("openPath");
    }

    /**
     * Thread Start/End/DCStart/DCEnd (version 4+) and Thread/SetName: the thread's name; null otherwise
     * and when the name is empty (a thread without a description).
     */
    public String threadName() {
        String n = text("threadName");
        return n == null || n.isEmpty() ? null : n;
    }

    /** StackWalk Stack, KeyDelete and KeyRundown: the return addresses, innermost first; null otherwise. */
    public long[] stack() {
        Object v = fields.get("stack");
        return v instanceof long[] ? ((long[]) v).clone() : null;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(fullName());
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            s.append(' ').append(e.getKey()).append('=');
            Object v = e.getValue();
            if (v instanceof long[]) {
                s.append(addressList((long[]) v));
            } else if (isAddress(e.getKey())) {
                s.append("0x").append(Long.toHexString((Long) v));
            } else if (v instanceof String) {
                s.append('"').append(v).append('"');
            } else {
                s.append(v);
            }
        }
        return s.toString();
    }

    /** Addresses as the text forms show a stack: "[0x7ff6...,0xfffff803...]", innermost first. */
    public static String addressList(long[] a) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < a.length; i++) {
            s.append(i == 0 ? "" : ",").append("0x").append(Long.toHexString(a[i]));
        }
        return s.append(']').toString();
    }
}
