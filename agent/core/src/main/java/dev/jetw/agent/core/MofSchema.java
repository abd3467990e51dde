package dev.jetw.agent.core;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etl.EventType;

import java.util.UUID;

/**
 * The MOF that publishes jetw's event layout (JetwSchema) in WMI's root\wmi namespace, so that
 * tracerpt, WPA and TDH decode the classic events on Windows (compile with {@code mofcomp}).
 * The provider class derives from EventTrace with the control GUID; one class per event class
 * with its GUID; one class per event type whose WmiDataId order is the payload layout.
 */
public final class MofSchema {

    /**
     * The class qualifier of Microsoft's classic-schema samples ("Publishing Your Event Schema for a
     * Classic Provider", "Event Tracing MOF Qualifiers"): instances are provided dynamically (ToInstance
     * propagates it to instances). Every class of the schema carries it.
     */
    static final String DYNAMIC = "dynamic: ToInstance";

    private MofSchema() {
    }

    /** The MOF text ({@code ./jetw mof}). */
    public static String generate() {
        StringBuilder m = new StringBuilder();
        m.append("// jetw event schema: Java method activity in ETW (classic provider \"").append(JetwSchema.PROVIDER_NAME).append("\").\n");
        m.append("// Publish on the machine that decodes the trace: mofcomp jetw.mof (as administrator).\n");
        m.append("// Payloads: little-endian integers, UTF-16LE NUL-terminated strings, no padding.\n");
        m.append("#pragma namespace(\"\\\\\\\\.\\\\root\\\\wmi\")\n");
        m.append("#pragma classflags(\"forceupdate\")\n\n");

        m.append("[" + DYNAMIC + ", Description(\"jetw: Java method activity\"), Guid(\"").append(guid(JetwSchema.CONTROL_GUID))
                .append("\"), locale(\"MS\\\\0x409\")]\n");
        m.append("class Jetw : EventTrace\n{\n};\n\n");

        eventClass(m, "Jetw_MethodCall", "Calls of traced methods (instance events: InstanceId per call, ParentInstanceId = enclosing traced call)",
                JetwSchema.METHOD_CALL_CLASS);
        typeClass(m, "Jetw_MethodCall_Start", "Jetw_MethodCall", new int[] {EventType.START}, new String[] {"Start"},
                "uint32", "MethodId");
        typeClass(m, "Jetw_MethodCall_End", "Jetw_MethodCall", new int[] {EventType.END}, new String[] {"End"},
                "uint32", "MethodId", "string", "ExceptionClass");
        typeClass(m, "Jetw_MethodCall_Checkpoint", "Jetw_MethodCall", new int[] {EventType.CHECKPOINT}, new String[] {"Checkpoint"},
                "uint32", "MethodId", "string", "Label");
        // A task handed over from a traced call begins (docs/cross-thread.md): parent = the submitting call, on another thread.
        typeClass(m, "Jetw_MethodCall_Dequeue", "Jetw_MethodCall", new int[] {EventType.DEQUEUE}, new String[] {"Dequeue"},
                "uint32", "MethodId", "uint32", "HandoffKind", "uint64", "QueueWaitNs");

        eventClass(m, "Jetw_Method", "Method rundown: names of method ids", JetwSchema.METHOD_CLASS);
        typeClass(m, "Jetw_Method_Rundown", "Jetw_Method", new int[] {EventType.DC_START, EventType.DC_END}, new String[] {"DCStart", "DCEnd"},
                "uint32", "MethodId", "string", "ClassName", "string", "MethodName", "string", "Descriptor");

        // Two versions of one class, as Microsoft's MOF qualifier page says: the latest keeps the name and the highest
        // EventVersion, the older one is renamed <class>_V0 with EventVersion(0); a decoder picks by Class.Version.
        eventClass(m, "Jetw_Thread", "Thread rundown: names of Java threads and their OS thread ids", JetwSchema.THREAD_CLASS,
                JetwSchema.THREAD_VERSION);
        typeClass(m, "Jetw_Thread_Rundown", "Jetw_Thread", new int[] {EventType.DC_START, EventType.DC_END}, new String[] {"DCStart", "DCEnd"},
                "uint64", "JavaThreadId", "uint64", "OsThreadId", "string", "ThreadName");
        eventClass(m, "Jetw_Thread_V0", "Thread rundown, version 0 (before the OS thread id)", JetwSchema.THREAD_CLASS, 0);
        typeClass(m, "Jetw_Thread_V0_Rundown", "Jetw_Thread_V0", new int[] {EventType.DC_START, EventType.DC_END},
                new String[] {"DCStart", "DCEnd"}, "uint64", "JavaThreadId", "string", "ThreadName");
        for (JvmEventSchema.EventClass c : JvmEventSchema.CLASSES) {
            runtimeClass(m, c);
        }

        eventClass(m, "Jetw_MethodExclusion", "Methods the agent stopped tracing while attached, and why",
                JetwSchema.METHOD_EXCLUSION_CLASS);
        typeClass(m, "Jetw_MethodExclusion_Info", "Jetw_MethodExclusion", new int[] {EventType.INFO}, new String[] {"Info"},
                "uint32", "MethodId", "uint32", "CallsObserved", "uint32", "LongCalls", "uint64", "ShortNanos", "string", "Reason");
        return m.toString();
    }

    /** A JVM runtime event class (jvm= option): one MOF type class per event type, fields from JvmEventSchema. */
    private static void runtimeClass(StringBuilder m, JvmEventSchema.EventClass c) {
        String name = "Jetw_" + c.name;
        eventClass(m, name, c.description + " (jvm=" + c.family + ")", c.guid);
        for (JvmEventSchema.Layout l : c.layouts) {
            String[] fields = new String[2 * l.fields.size()];
            for (int i = 0; i < l.fields.size(); i++) {
                JvmEventSchema.Field f = l.fields.get(i);
                fields[2 * i] = f.type == JvmEventSchema.FieldType.U32 ? "uint32" : f.type == JvmEventSchema.FieldType.U64 ? "uint64" : "string";
                fields[2 * i + 1] = f.name;
            }
            typeClass(m, name + "_" + l.typeName, name, new int[] {l.type}, new String[] {l.typeName}, fields);
        }
    }

    private static void eventClass(StringBuilder m, String name, String description, UUID guid) {
        eventClass(m, name, description, guid, 0);
    }

    private static void eventClass(StringBuilder m, String name, String description, UUID guid, int version) {
        m.append("[" + DYNAMIC + ", Description(\"").append(description).append("\"), Guid(\"").append(guid(guid))
                .append("\"), EventVersion(").append(version).append(")]\n");
        m.append("class ").append(name).append(" : Jetw\n{\n};\n\n");
    }

    /** {@code fields} alternates MOF type and property name, in payload order. */
    private static void typeClass(StringBuilder m, String name, String parent, int[] types, String[] typeNames, String... fields) {
        m.append("[" + DYNAMIC + ", EventType");
        list(m, types, null);
        m.append(", EventTypeName");
        list(m, null, typeNames);
        m.append("]\nclass ").append(name).append(" : ").append(parent).append("\n{\n");
        for (int i = 0; i < fields.length; i += 2) {
            String type = fields[i];
            m.append("    [WmiDataId(").append(i / 2 + 1).append("), Description(\"").append(fields[i + 1]).append("\"), read");
            if (type.equals("string")) {
                m.append(", Format(\"w\"), StringTermination(\"NullTerminated\")");
            }
            m.append("] ").append(type).append(' ').append(fields[i + 1]).append(";\n");
        }
        m.append("};\n\n");
    }

    private static void list(StringBuilder m, int[] ints, String[] strings) {
        int n = ints != null ? ints.length : strings.length;
        m.append(n > 1 ? "{" : "(");
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                m.append(", ");
            }
            if (ints != null) {
                m.append(ints[i]);
            } else {
                m.append('"').append(strings[i]).append('"');
            }
        }
        m.append(n > 1 ? "}" : ")");
    }

    private static String guid(UUID u) {
        return "{" + u.toString() + "}";
    }
}
