package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every size and offset in {@link EtwLayout}, for X64 and X86, against the SDK values transcribed
 * from the fact sheet (etw-api.md §2, computed by mingw-w64 for x86_64 and i686). The probe test
 * checks the same numbers against the headers themselves; this one needs no compiler. Plus the JNA
 * view: the same structs declared as JNA Structures lay out exactly as EtwLayout.current() says.
 */
class EtwLayoutTest {

    /** name -> {x64, x86}, from etw-api.md §2.2, 2.3, 2.5, 2.6, 2.8. */
    private static final Map<String, int[]> SDK = new LinkedHashMap<>();

    static {
        // §2.2 WNODE_HEADER (identical on both)
        sdk("WNODE_HEADER_SIZE", 48, 48);
        sdk("WNODE_BUFFER_SIZE", 0, 0);
        sdk("WNODE_PROVIDER_ID", 4, 4);
        sdk("WNODE_HISTORICAL_CONTEXT", 8, 8);
        sdk("WNODE_VERSION", 8, 8);
        sdk("WNODE_LINKAGE", 12, 12);
        sdk("WNODE_TIMESTAMP", 16, 16);
        sdk("WNODE_COUNT_LOST", 16, 16);
        sdk("WNODE_KERNEL_HANDLE", 16, 16);
        sdk("WNODE_GUID", 24, 24);
        sdk("WNODE_CLIENT_CONTEXT", 40, 40);
        sdk("WNODE_FLAGS", 44, 44);
        // §2.3 EVENT_TRACE_PROPERTIES
        sdk("ETP_WNODE", 0, 0);
        sdk("ETP_BUFFER_SIZE", 48, 48);
        sdk("ETP_MINIMUM_BUFFERS", 52, 52);
        sdk("ETP_MAXIMUM_BUFFERS", 56, 56);
        sdk("ETP_MAXIMUM_FILE_SIZE", 60, 60);
        sdk("ETP_LOG_FILE_MODE", 64, 64);
        sdk("ETP_FLUSH_TIMER", 68, 68);
        sdk("ETP_ENABLE_FLAGS", 72, 72);
        sdk("ETP_AGE_LIMIT", 76, 76);
        sdk("ETP_NUMBER_OF_BUFFERS", 80, 80);
        sdk("ETP_FREE_BUFFERS", 84, 84);
        sdk("ETP_EVENTS_LOST", 88, 88);
        sdk("ETP_BUFFERS_WRITTEN", 92, 92);
        sdk("ETP_LOG_BUFFERS_LOST", 96, 96);
        sdk("ETP_REAL_TIME_BUFFERS_LOST", 100, 100);
        sdk("ETP_LOGGER_THREAD_ID", 104, 104);
        sdk("etpLogFileNameOffset", 112, 108);
        sdk("etpLoggerNameOffset", 116, 112);
        sdk("ETP_SIZE", 120, 120);
        // §2.5 EVENT_TRACE_HEADER / §2.6 EVENT_INSTANCE_HEADER
        sdk("EVENT_TRACE_HEADER_SIZE", 48, 48);
        sdk("EVENT_INSTANCE_HEADER_SIZE", 56, 56);
        sdk("EH_SIZE", 0, 0);
        sdk("EH_FIELD_TYPE_FLAGS", 2, 2);
        sdk("EH_HEADER_TYPE", 2, 2);
        sdk("EH_MARKER_FLAGS", 3, 3);
        sdk("EH_VERSION", 4, 4);
        sdk("EH_CLASS_TYPE", 4, 4);
        sdk("EH_CLASS_LEVEL", 5, 5);
        sdk("EH_CLASS_VERSION", 6, 6);
        sdk("EH_THREAD_ID", 8, 8);
        sdk("EH_PROCESS_ID", 12, 12);
        sdk("EH_TIMESTAMP", 16, 16);
        sdk("ETH_GUID", 24, 24);
        sdk("ETH_GUID_PTR", 24, 24);
        sdk("EIH_REG_HANDLE", 24, 24);
        sdk("EIH_INSTANCE_ID", 32, 32);
        sdk("EIH_PARENT_INSTANCE_ID", 36, 36);
        sdk("EH_KERNEL_TIME", 40, 40);
        sdk("EH_PROCESSOR_TIME", 40, 40);
        sdk("ETH_CLIENT_CONTEXT", 40, 40);
        sdk("EIH_EVENT_ID", 40, 40);
        sdk("EH_USER_TIME", 44, 44);
        sdk("EH_FLAGS", 44, 44);
        sdk("EIH_PARENT_REG_HANDLE", 48, 48);
        // §2.8 MOF_FIELD, EVENT_INSTANCE_INFO, TRACE_GUID_REGISTRATION
        sdk("MOF_FIELD_SIZE", 16, 16);
        sdk("MOF_DATA_PTR", 0, 0);
        sdk("MOF_LENGTH", 8, 8);
        sdk("MOF_DATA_TYPE", 12, 12);
        sdk("MAX_MOF_FIELDS", 16, 16);
        sdk("instanceInfoSize", 16, 8);
        sdk("instanceInfoRegHandle", 0, 0);
        sdk("instanceInfoInstanceId", 8, 4);
        sdk("traceGuidRegistrationSize", 16, 8);
        sdk("traceGuidRegistrationGuid", 0, 0);
        sdk("traceGuidRegistrationRegHandle", 8, 4);
        sdk("GUID_SIZE", 16, 16);
        sdk("pointerSize", 8, 4);
    }

    private static void sdk(String name, int x64, int x86) {
        SDK.put(name, new int[] {x64, x86});
    }

    @Test
    void everyEtwLayoutValueEqualsTheSdkValueOnX64AndX86() throws ReflectiveOperationException {
        List<String> wrong = new ArrayList<>();
        List<String> untested = new ArrayList<>();
        for (Field f : EtwLayout.class.getDeclaredFields()) {
            int m = f.getModifiers();
            if (!Modifier.isStatic(m) || f.getType() != int.class) {
                continue;
            }
            int[] expected = SDK.get(f.getName());
            if (expected == null) {
                untested.add(f.getName());
            } else if (f.getInt(null) != expected[0] || f.getInt(null) != expected[1]) {
                wrong.add(f.getName() + " = " + f.getInt(null) + ", SDK x64 " + expected[0] + " / x86 " + expected[1]);
            }
        }
        for (Method meth : EtwLayout.class.getDeclaredMethods()) {
            if (Modifier.isStatic(meth.getModifiers()) || meth.getReturnType() != int.class) {
                continue;
            }
            int[] expected = SDK.get(meth.getName());
            if (expected == null) {
                untested.add(meth.getName() + "()");
                continue;
            }
            int x64 = (int) meth.invoke(EtwLayout.X64);
            int x86 = (int) meth.invoke(EtwLayout.X86);
            if (x64 != expected[0] || x86 != expected[1]) {
                wrong.add(meth.getName() + "() = x64 " + x64 + " / x86 " + x86 + ", SDK x64 " + expected[0] + " / x86 "
                        + expected[1]);
            }
        }
        assertEquals(List.of(), wrong, "EtwLayout values that differ from the SDK");
        assertEquals(List.of(), untested, "EtwLayout members without an SDK value in this test");
    }

    @Test
    void theTrailingNamesStartRightAfterTheStructOnBothArchitectures() {
        // LoggerNameOffset's VALUE is sizeof(EVENT_TRACE_PROPERTIES): 120 on x64 and on x86 (4 bytes of tail padding).
        assertEquals(120, EtwLayout.ETP_SIZE);
        assertEquals(EtwLayout.ETP_SIZE, EtwLayout.X86.etpLoggerNameOffset() + 4 + 4, "x86: 4 bytes of tail padding");
        assertEquals(EtwLayout.ETP_SIZE, EtwLayout.X64.etpLoggerNameOffset() + 4, "x64: no tail padding");
    }

    @Test
    void currentFollowsThePointerSizeOfThisJvm() {
        assertEquals(Native.POINTER_SIZE, EtwLayout.current().pointerSize());
    }

    // ---------------------------------------------------------------- the JNA view

    @Structure.FieldOrder({"BufferSize", "ProviderId", "HistoricalContext", "TimeStamp", "Guid0", "Guid1",
        "ClientContext", "Flags"})
    public static class WnodeHeader extends Structure {
        public int BufferSize;
        public int ProviderId;
        public long HistoricalContext;
        public long TimeStamp;
        public long Guid0;
        public long Guid1;
        public int ClientContext;
        public int Flags;

        int offset(String field) {
            return fieldOffset(field);
        }
    }

    @Structure.FieldOrder({"Wnode", "BufferSize", "MinimumBuffers", "MaximumBuffers", "MaximumFileSize", "LogFileMode",
        "FlushTimer", "EnableFlags", "AgeLimit", "NumberOfBuffers", "FreeBuffers", "EventsLost", "BuffersWritten",
        "LogBuffersLost", "RealTimeBuffersLost", "LoggerThreadId", "LogFileNameOffset", "LoggerNameOffset"})
    public static class EventTraceProperties extends Structure {
        public WnodeHeader Wnode;
        public int BufferSize;
        public int MinimumBuffers;
        public int MaximumBuffers;
        public int MaximumFileSize;
        public int LogFileMode;
        public int FlushTimer;
        public int EnableFlags;
        public int AgeLimit;
        public int NumberOfBuffers;
        public int FreeBuffers;
        public int EventsLost;
        public int BuffersWritten;
        public int LogBuffersLost;
        public int RealTimeBuffersLost;
        public Pointer LoggerThreadId;
        public int LogFileNameOffset;
        public int LoggerNameOffset;

        int offset(String field) {
            return fieldOffset(field);
        }
    }

    @Structure.FieldOrder({"Size", "FieldTypeFlags", "Type", "Level", "Version", "ThreadId", "ProcessId", "TimeStamp",
        "RegHandle", "InstanceId", "ParentInstanceId", "EventId", "Flags", "ParentRegHandle"})
    public static class EventInstanceHeader extends Structure {
        public short Size;
        public short FieldTypeFlags;
        public byte Type;
        public byte Level;
        public short Version;
        public int ThreadId;
        public int ProcessId;
        public long TimeStamp;
        public long RegHandle;
        public int InstanceId;
        public int ParentInstanceId;
        public int EventId;
        public int Flags;
        public long ParentRegHandle;

        int offset(String field) {
            return fieldOffset(field);
        }
    }

    @Structure.FieldOrder({"Size", "FieldTypeFlags", "Type", "Level", "Version", "ThreadId", "ProcessId", "TimeStamp",
        "Guid0", "Guid1", "ClientContext", "Flags"})
    public static class EventTraceHeader extends Structure {
        public short Size;
        public short FieldTypeFlags;
        public byte Type;
        public byte Level;
        public short Version;
        public int ThreadId;
        public int ProcessId;
        public long TimeStamp;
        public long Guid0;
        public long Guid1;
        public int ClientContext;
        public int Flags;

        int offset(String field) {
            return fieldOffset(field);
        }
    }

    @Structure.FieldOrder({"RegHandle", "InstanceId"})
    public static class EventInstanceInfo extends Structure {
        public Pointer RegHandle;
        public int InstanceId;

        int offset(String field) {
            return fieldOffset(field);
        }
    }

    @Structure.FieldOrder({"Guid", "RegHandle"})
    public static class TraceGuidRegistration extends Structure {
        public Pointer Guid;
        public Pointer RegHandle;

        int offset(String field) {
            return fieldOffset(field);
        }
    }

    @Structure.FieldOrder({"DataPtr", "Length", "DataType"})
    public static class MofField extends Structure {
        public long DataPtr;
        public int Length;
        public int DataType;

        int offset(String field) {
            return fieldOffset(field);
        }
    }

    /** JNA's own layout of the structs (int for ULONG, long for the 64-bit members) equals EtwLayout.current(). */
    @Test
    void jnaStructuresOnThisJvmLayOutAsEtwLayoutCurrent() {
        assumeTrue(Native.POINTER_SIZE == 8, "the JNA view is checked on 64-bit JVMs");
        EtwLayout l = EtwLayout.current();
        WnodeHeader w = new WnodeHeader();
        assertEquals(EtwLayout.WNODE_HEADER_SIZE, w.size());
        assertEquals(EtwLayout.WNODE_HISTORICAL_CONTEXT, w.offset("HistoricalContext"));
        assertEquals(EtwLayout.WNODE_TIMESTAMP, w.offset("TimeStamp"));
        assertEquals(EtwLayout.WNODE_GUID, w.offset("Guid0"));
        assertEquals(EtwLayout.WNODE_CLIENT_CONTEXT, w.offset("ClientContext"));
        assertEquals(EtwLayout.WNODE_FLAGS, w.offset("Flags"));

        EventTraceProperties p = new EventTraceProperties();
        assertEquals(EtwLayout.ETP_SIZE, p.size());
        assertEquals(EtwLayout.ETP_BUFFER_SIZE, p.offset("BufferSize"));
        assertEquals(EtwLayout.ETP_AGE_LIMIT, p.offset("AgeLimit"));
        assertEquals(EtwLayout.ETP_REAL_TIME_BUFFERS_LOST, p.offset("RealTimeBuffersLost"));
        assertEquals(EtwLayout.ETP_LOGGER_THREAD_ID, p.offset("LoggerThreadId"));
        assertEquals(l.etpLogFileNameOffset(), p.offset("LogFileNameOffset"));
        assertEquals(l.etpLoggerNameOffset(), p.offset("LoggerNameOffset"));

        EventInstanceHeader h = new EventInstanceHeader();
        assertEquals(EtwLayout.EVENT_INSTANCE_HEADER_SIZE, h.size());
        assertEquals(EtwLayout.EH_CLASS_TYPE, h.offset("Type"));
        assertEquals(EtwLayout.EH_CLASS_LEVEL, h.offset("Level"));
        assertEquals(EtwLayout.EH_CLASS_VERSION, h.offset("Version"));
        assertEquals(EtwLayout.EH_TIMESTAMP, h.offset("TimeStamp"));
        assertEquals(EtwLayout.EIH_REG_HANDLE, h.offset("RegHandle"));
        assertEquals(EtwLayout.EIH_INSTANCE_ID, h.offset("InstanceId"));
        assertEquals(EtwLayout.EIH_PARENT_INSTANCE_ID, h.offset("ParentInstanceId"));
        assertEquals(EtwLayout.EIH_EVENT_ID, h.offset("EventId"));
        assertEquals(EtwLayout.EH_FLAGS, h.offset("Flags"));
        assertEquals(EtwLayout.EIH_PARENT_REG_HANDLE, h.offset("ParentRegHandle"));

        EventTraceHeader t = new EventTraceHeader();
        assertEquals(EtwLayout.EVENT_TRACE_HEADER_SIZE, t.size());
        assertEquals(EtwLayout.ETH_GUID, t.offset("Guid0"));
        assertEquals(EtwLayout.ETH_CLIENT_CONTEXT, t.offset("ClientContext"));
        assertEquals(EtwLayout.EH_FLAGS, t.offset("Flags"));

        EventInstanceInfo i = new EventInstanceInfo();
        assertEquals(l.instanceInfoSize(), i.size());
        assertEquals(l.instanceInfoInstanceId(), i.offset("InstanceId"));
        TraceGuidRegistration g = new TraceGuidRegistration();
        assertEquals(l.traceGuidRegistrationSize(), g.size());
        assertEquals(l.traceGuidRegistrationRegHandle(), g.offset("RegHandle"));
        MofField f = new MofField();
        assertEquals(EtwLayout.MOF_FIELD_SIZE, f.size());
        assertEquals(EtwLayout.MOF_LENGTH, f.offset("Length"));
        assertEquals(EtwLayout.MOF_DATA_TYPE, f.offset("DataType"));
    }
}
