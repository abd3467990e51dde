package dev.jetw.analysis.cli;

import dev.jetw.etl.TruncationMark;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etl.EventType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A record of one of jetw's own event classes with its payload decoded per {@link JetwSchema}.
 * {@link #decode} returns null for other records and for payloads that do not match the schema.
 */
final class JetwEvent {

    enum Kind { CALL_START, CALL_END, CHECKPOINT, DEQUEUE, METHOD, THREAD, EXCLUSION, RUNTIME }

    final Kind kind;
    final int methodId;
    /** END: exception class name, "" for a normal return. CHECKPOINT: the label. EXCLUSION: the reason. */
    final String text;
    final String className;
    final String methodName;
    final String descriptor;
    final long javaThreadId;
    /**
     * THREAD: the OS thread id of a version-1 rundown (0: the writer says there is none, a virtual thread), or -1
     * for version 0, which does not carry one.
     */
    long threadOsId = -1;
    /** The writer cut the payload to the session's size limit (it ends with ClassicProvider's mark). */
    boolean truncated;
    /** DEQUEUE (a task handed over from a traced call begins): {hand-off kind, queue wait in ns}; EXCLUSION: calls observed, how many of them were long, and "long" in nanoseconds; null otherwise. */
    final long[] exclusionCounts;
    /** RUNTIME: the JVM runtime event class, the layout of this type and its field values (JvmEventSchema). */
    final JvmEventSchema.EventClass runtimeClass;
    final JvmEventSchema.Layout layout;
    final Object[] values;

    private JetwEvent(JvmEventSchema.EventClass runtimeClass, JvmEventSchema.Layout layout, Object[] values) {
        this.kind = Kind.RUNTIME;
        this.methodId = 0;
        this.text = null;
        this.className = null;
        this.methodName = null;
        this.descriptor = null;
        this.javaThreadId = (Long) values[1];
        this.runtimeClass = runtimeClass;
        this.layout = layout;
        this.values = values;
        this.exclusionCounts = null;
    }

    private JetwEvent(Kind kind, int methodId, String text, String className, String methodName, String descriptor,
                      long javaThreadId) {
        this(kind, methodId, text, className, methodName, descriptor, javaThreadId, null);
    }

    private JetwEvent(Kind kind, int methodId, String text, String className, String methodName, String descriptor,
                      long javaThreadId, long[] exclusionCounts) {
        this.kind = kind;
        this.methodId = methodId;
        this.text = text;
        this.className = className;
        this.methodName = methodName;
        this.descriptor = descriptor;
        this.javaThreadId = javaThreadId;
        this.exclusionCounts = exclusionCounts;
        this.runtimeClass = null;
        this.layout = null;
        this.values = null;
    }

    static JetwEvent decode(EtlRecord r) {
        JetwEvent e = decodeFields(r);
        if (e != null) {
            e.truncated = TruncationMark.endsPayload(r.userData());
        }
        return e;
    }

    private static JetwEvent decodeFields(EtlRecord r) {
        if (r.guid() == null) {
            return null;
        }
        JvmEventSchema.EventClass runtime = JvmEventSchema.byGuid(r.guid());
        if (runtime != null) {
            JvmEventSchema.Layout layout = runtime.layout(r.type());
            Object[] values = layout == null ? null : layout.decode(r.userData());
            return values == null ? null : new JetwEvent(runtime, layout, values);
        }
        ByteBuffer p = ByteBuffer.wrap(r.userData()).order(ByteOrder.LITTLE_ENDIAN);
        boolean cut = TruncationMark.endsPayload(r.userData());
        try {
            if (r.guid().equals(JetwSchema.METHOD_CALL_CLASS)) {
                switch (r.type()) {
                    case EventType.START:
                        return new JetwEvent(Kind.CALL_START, p.getInt(), null, null, null, null, 0);
                    case EventType.END:
                        return new JetwEvent(Kind.CALL_END, p.getInt(), utf16z(p), null, null, null, 0);
                    case EventType.CHECKPOINT:
                        return new JetwEvent(Kind.CHECKPOINT, p.getInt(), utf16z(p), null, null, null, 0);
                    case EventType.DEQUEUE: // u32 methodId (0), u32 hand-off kind, u64 queue wait (ns)
                        int method = p.getInt();
                        long kind = p.getInt() & 0xFFFFFFFFL;
                        return new JetwEvent(Kind.DEQUEUE, method, null, null, null, null, 0, new long[] {kind, p.getLong()});
                    default:
                        return null;
                }
            }
            if (r.guid().equals(JetwSchema.METHOD_CLASS)
                    && (r.type() == EventType.DC_START || r.type() == EventType.DC_END)) {
                int id = p.getInt();
                // A cut rundown ends inside one of its strings: the strings after the cut are missing ("").
                return new JetwEvent(Kind.METHOD, id, null, utf16z(p, cut), utf16z(p, cut), utf16z(p, cut), 0);
            }
            if (r.guid().equals(JetwSchema.THREAD_CLASS)
                    && (r.type() == EventType.DC_START || r.type() == EventType.DC_END)) {
                long id = p.getLong();
                long os = r.version() >= 1 ? p.getLong() : -1; // version 1: u64 javaThreadId, u64 osThreadId, name
                JetwEvent e = new JetwEvent(Kind.THREAD, 0, utf16z(p, cut), null, null, null, id);
                e.threadOsId = os;
                return e;
            }
            if (r.guid().equals(JetwSchema.METHOD_EXCLUSION_CLASS) && r.type() == EventType.INFO) {
                int id = p.getInt();
                long[] counts = {p.getInt() & 0xFFFFFFFFL, p.getInt() & 0xFFFFFFFFL, p.getLong()};
                return new JetwEvent(Kind.EXCLUSION, id, utf16z(p), null, null, null, 0, counts);
            }
        } catch (RuntimeException malformed) {
            return null; // shorter than the schema: shown as hex
        }
        return null;
    }

    /** As {@link #utf16z(ByteBuffer)}; a string the cut left out reads as "" when {@code cut}. */
    private static String utf16z(ByteBuffer p, boolean cut) {
        return cut && !p.hasRemaining() ? "" : utf16z(p);
    }

    /** Reads a NUL-terminated UTF-16LE string; fails if the NUL is missing. */
    private static String utf16z(ByteBuffer p) {
        StringBuilder s = new StringBuilder();
        while (true) {
            char c = p.getChar();
            if (c == 0) {
                return s.toString();
            }
            s.append(c);
        }
    }

    /** DEQUEUE: the hand-off kind (1 executor, 2 fork-join, 3 scheduled, 4 thread start). */
    int handoffKind() {
        return (int) exclusionCounts[0];
    }

    /** DEQUEUE: how long the task waited between its submission (or its due time) and its start, in ns. */
    long queueWaitNanos() {
        return exclusionCounts[1];
    }

    /**
     * "hot-short: 10000 calls observed, 3 lasting 2000 ns or more" for a MethodExclusion event; "running hot at attach: 0
     * calls observed" for a decision taken without observing calls (the attach ramp, hotMethods=), whose other counts
     * mean nothing (it read "0 calls observed, 0 lasting 0 ns or more").
     */
    String exclusionText() {
        return exclusionCounts[0] == 0 ? text + ": 0 calls observed"
                : text + ": " + exclusionCounts[0] + " calls observed, " + exclusionCounts[1] + " lasting " + exclusionCounts[2]
                + " ns or more";
    }

    /** RUNTIME: the subject's OS thread id (0 when none). */
    long osThreadId() {
        return (Long) values[0];
    }

    /** RUNTIME: the value of field {@code name}, or null. */
    Object field(String name) {
        for (int i = 0; i < values.length; i++) {
            if (layout.fields.get(i).name.equals(name)) {
                return values[i];
            }
        }
        return null;
    }

    /** RUNTIME: "Name=value ..." over every field, strings quoted. */
    String runtimeFields() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                s.append(' ');
            }
            s.append(layout.fields.get(i).name).append('=');
            s.append(values[i] instanceof String ? "\"" + values[i] + "\"" : values[i]);
        }
        return s.toString();
    }

    /** "com.example.Foo.bar(I)V" for a Method rundown event. */
    String methodDisplayName() {
        return className + "." + methodName + descriptor;
    }

    static String className(java.util.UUID guid) {
        if (JetwSchema.METHOD_CALL_CLASS.equals(guid)) {
            return "MethodCall";
        }
        if (JetwSchema.METHOD_CLASS.equals(guid)) {
            return "Method";
        }
        if (JetwSchema.THREAD_CLASS.equals(guid)) {
            return "Thread";
        }
        if (JetwSchema.METHOD_EXCLUSION_CLASS.equals(guid)) {
            return "MethodExclusion";
        }
        JvmEventSchema.EventClass runtime = guid == null ? null : JvmEventSchema.byGuid(guid);
        return runtime == null ? null : runtime.name;
    }
}
