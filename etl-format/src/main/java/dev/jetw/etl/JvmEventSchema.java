package dev.jetw.etl;


import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * The JVM runtime event classes (agent option {@code jvm=}, docs/jvm-events.md): for each class its
 * family, level, whether it stops the whole JVM, and per event type the payload fields in order. The
 * agent writes these layouts, {@code jetw mof} publishes them and the .etl tools decode them from this
 * one description.
 *
 * <p>Every payload starts with the subject thread: u64 OsThreadId, u64 JavaThreadId (0 when the event
 * has no subject thread). The writing thread (the header's thread id) is the agent's consumer thread,
 * never the subject. Durations are START/END pairs with one instance id; the records carry the JVM's
 * own times, so they are not in time order within a buffer.
 */
public final class JvmEventSchema {

    /** Payload field types: little-endian integers, UTF-16LE NUL-terminated strings. */
    public enum FieldType { U32, U64, STRING }

    /** One payload field. */
    public static final class Field {
        public final FieldType type;
        public final String name;

        Field(FieldType type, String name) {
            this.type = type;
            this.name = name;
        }
    }

    /** One event type of a class: its EVENT_TRACE_TYPE, the name in the MOF, and its fields. */
    public static final class Layout {
        public final int type;
        public final String typeName;
        public final List<Field> fields;

        Layout(int type, String typeName, Field... fields) {
            this.type = type;
            this.typeName = typeName;
            List<Field> all = new ArrayList<>(Arrays.asList(SUBJECT));
            all.addAll(Arrays.asList(fields));
            this.fields = Collections.unmodifiableList(all);
        }

        /** The payload's values in field order: Long for U32/U64, String for STRING; null if it does not match. */
        public Object[] decode(byte[] payload) {
            ByteBuffer p = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
            Object[] values = new Object[fields.size()];
            try {
                for (int i = 0; i < values.length; i++) {
                    switch (fields.get(i).type) {
                        case U32:
                            values[i] = p.getInt() & 0xFFFFFFFFL;
                            break;
                        case U64:
                            values[i] = p.getLong();
                            break;
                        default:
                            values[i] = utf16z(p);
                    }
                }
            } catch (RuntimeException shorter) {
                return null;
            }
            return values;
        }
    }

    /** One runtime event class. */
    public static final class EventClass {
        public final int index;
        public final UUID guid;
        /** Class name in the MOF and the tools, e.g. "JvmGc". */
        public final String name;
        /** The {@code jvm=} family that turns it on. */
        public final String family;
        public final int level;
        /** True when the event stops every Java thread (GC pauses, safepoints), whatever its subject thread. */
        public final boolean jvmWide;
        /** True when START and END of one instance id are one interval. */
        public final boolean paired;
        public final String description;
        public final List<Layout> layouts;

        EventClass(int index, UUID guid, String name, String family, int level, boolean jvmWide, boolean paired,
                   String description, Layout... layouts) {
            this.index = index;
            this.guid = guid;
            this.name = name;
            this.family = family;
            this.level = level;
            this.jvmWide = jvmWide;
            this.paired = paired;
            this.description = description;
            this.layouts = Collections.unmodifiableList(Arrays.asList(layouts));
        }

        /** The layout of {@code type}, or null. */
        public Layout layout(int type) {
            for (Layout l : layouts) {
                if (l.type == type) {
                    return l;
                }
            }
            return null;
        }
    }

    private static final Field[] SUBJECT = {u64("OsThreadId"), u64("JavaThreadId")};

    public static final EventClass GC = new EventClass(JetwSchema.JVM_GC_INDEX, JetwSchema.JVM_GC_CLASS, "JvmGc", "gc",
            TraceLevel.INFORMATION, false, true, "A garbage collection, start to end (pauses: JvmGcPause)",
            new Layout(EventType.START, "Start", u32("GcId"), str("Name"), str("Cause")),
            new Layout(EventType.END, "End", u32("GcId"), u64("LongestPauseNs"), u64("SumOfPausesNs")),
            new Layout(EventType.INFO, "Heap", u32("GcId"), u32("AfterGc"), u64("HeapUsed")));
    public static final EventClass GC_PAUSE = new EventClass(JetwSchema.JVM_GC_PAUSE_INDEX, JetwSchema.JVM_GC_PAUSE_CLASS,
            "JvmGcPause", "gc", TraceLevel.INFORMATION, true, true, "A stop-the-world pause of a garbage collection",
            new Layout(EventType.START, "Start", u32("GcId"), str("Name")),
            new Layout(EventType.END, "End", u32("GcId")));
    public static final EventClass SAFEPOINT = new EventClass(JetwSchema.JVM_SAFEPOINT_INDEX, JetwSchema.JVM_SAFEPOINT_CLASS,
            "JvmSafepoint", "safepoint", TraceLevel.INFORMATION, true, true,
            "A safepoint, from the request to the restart (subject: the thread that requested the VM operation)",
            new Layout(EventType.START, "Start", u64("SafepointId"), u64("TimeToSafepointNs"), str("Operation")),
            new Layout(EventType.END, "End", u64("SafepointId")));
    public static final EventClass CONTENTION = new EventClass(JetwSchema.JVM_CONTENTION_INDEX, JetwSchema.JVM_CONTENTION_CLASS,
            "JvmContention", "contention", TraceLevel.INFORMATION, false, true,
            "A thread blocked entering a monitor (Kind 0; owner: previous owner) or waiting on it (Kind 1; owner: notifier)",
            new Layout(EventType.START, "Start", u32("Kind"), u64("OwnerOsThreadId"), u64("OwnerJavaThreadId"), str("MonitorClass")),
            new Layout(EventType.END, "End", u32("Kind")));
    public static final EventClass PARK = new EventClass(JetwSchema.JVM_PARK_INDEX, JetwSchema.JVM_PARK_CLASS, "JvmPark", "park",
            TraceLevel.INFORMATION, false, true, "A thread parked (LockSupport.park*); TimeoutNs -1 when none",
            new Layout(EventType.START, "Start", u64("TimeoutNs"), str("BlockerClass")),
            new Layout(EventType.END, "End"));
    public static final EventClass JIT = new EventClass(JetwSchema.JVM_JIT_INDEX, JetwSchema.JVM_JIT_CLASS, "JvmJit", "jit",
            TraceLevel.VERBOSE, false, true, "A JIT compilation (subject: the compiler thread); INFO: a deoptimization",
            new Layout(EventType.START, "Start", u32("CompileId"), u32("Tier"), u32("Osr"), str("Method")),
            new Layout(EventType.END, "End", u32("CompileId"), u32("Succeeded"), u32("CodeSize"), u32("InlinedBytes")),
            new Layout(EventType.INFO, "Deoptimization", u32("CompileId"), str("Method"), str("Reason")));
    public static final EventClass CLASS_LOAD = new EventClass(JetwSchema.JVM_CLASS_LOAD_INDEX, JetwSchema.JVM_CLASS_LOAD_CLASS,
            "JvmClassLoad", "classload", TraceLevel.VERBOSE, false, true, "A class load (START/END); INFO: a class unload",
            new Layout(EventType.START, "Start", str("ClassName"), str("Loader")),
            new Layout(EventType.END, "End"),
            new Layout(EventType.INFO, "Unload", str("ClassName"), str("Loader")));
    public static final EventClass EXCEPTION = new EventClass(JetwSchema.JVM_EXCEPTION_INDEX, JetwSchema.JVM_EXCEPTION_CLASS,
            "JvmException", "exception", TraceLevel.INFORMATION, false, false, "An exception created to be thrown",
            new Layout(EventType.INFO, "Thrown", str("ExceptionClass"), str("ThrowingMethod"), str("Message")));
    public static final EventClass THREAD = new EventClass(JetwSchema.JVM_THREAD_INDEX, JetwSchema.JVM_THREAD_CLASS, "JvmThread",
            "thread", TraceLevel.INFORMATION, false, false, "A thread started or ended (Virtual 1 for a virtual thread)",
            new Layout(EventType.START, "Start", u32("Virtual"), str("ThreadName")),
            new Layout(EventType.END, "End", u32("Virtual"), str("ThreadName")));
    public static final EventClass IO = new EventClass(JetwSchema.JVM_IO_INDEX, JetwSchema.JVM_IO_CLASS, "JvmIo", "io",
            TraceLevel.INFORMATION, false, true,
            "File or socket I/O over the threshold; Kind 0 file read, 1 file write, 2 socket read, 3 socket write",
            new Layout(EventType.START, "Start", u32("Kind"), str("Target")),
            new Layout(EventType.END, "End", u32("Kind"), u64("Bytes")));

    /** In JetwSchema.EVENT_CLASSES order. */
    public static final List<EventClass> CLASSES = Collections.unmodifiableList(Arrays.asList(
            GC, GC_PAUSE, SAFEPOINT, CONTENTION, PARK, JIT, CLASS_LOAD, EXCEPTION, THREAD, IO));

    /** The families in the order the docs list them. */
    public static final List<String> FAMILIES = Collections.unmodifiableList(Arrays.asList(
            "gc", "safepoint", "contention", "park", "jit", "classload", "exception", "thread", "io"));

    private JvmEventSchema() {
    }

    /** The class with this GUID, or null. */
    public static EventClass byGuid(UUID guid) {
        for (EventClass c : CLASSES) {
            if (c.guid.equals(guid)) {
                return c;
            }
        }
        return null;
    }

    private static Field u32(String name) {
        return new Field(FieldType.U32, name);
    }

    private static Field u64(String name) {
        return new Field(FieldType.U64, name);
    }

    private static Field str(String name) {
        return new Field(FieldType.STRING, name);
    }

    private static String utf16z(ByteBuffer p) {
        StringBuilder s = new StringBuilder();
        for (char c = p.getChar(); c != 0; c = p.getChar()) {
            s.append(c);
        }
        return s.toString();
    }
}
