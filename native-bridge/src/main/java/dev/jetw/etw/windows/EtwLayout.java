package dev.jetw.etw.windows;

/**
 * Sizes and field offsets of the ETW structures, for x64 (pointer size 8) and x86 (4), as a
 * Windows-targeting compiler lays them out from evntrace.h / wmistr.h. Tests check every value
 * against the x86_64 and i686 mingw-w64 compilers.
 */
public final class EtwLayout {

    public static final EtwLayout X64 = new EtwLayout(8);
    public static final EtwLayout X86 = new EtwLayout(4);

    // WNODE_HEADER: identical on both architectures.
    public static final int WNODE_HEADER_SIZE = 48;
    public static final int WNODE_BUFFER_SIZE = 0;
    public static final int WNODE_PROVIDER_ID = 4;
    public static final int WNODE_HISTORICAL_CONTEXT = 8;
    /** Version and Linkage share HistoricalContext's 8 bytes (a union). */
    public static final int WNODE_VERSION = 8;
    public static final int WNODE_LINKAGE = 12;
    public static final int WNODE_TIMESTAMP = 16;
    /** CountLost and KernelHandle share TimeStamp's 8 bytes (a union). */
    public static final int WNODE_COUNT_LOST = 16;
    public static final int WNODE_KERNEL_HANDLE = 16;
    public static final int WNODE_GUID = 24;
    public static final int WNODE_CLIENT_CONTEXT = 40;
    public static final int WNODE_FLAGS = 44;

    // EVENT_TRACE_PROPERTIES up to LoggerThreadId: identical on both architectures.
    public static final int ETP_WNODE = 0;
    public static final int ETP_BUFFER_SIZE = 48;
    public static final int ETP_MINIMUM_BUFFERS = 52;
    public static final int ETP_MAXIMUM_BUFFERS = 56;
    public static final int ETP_MAXIMUM_FILE_SIZE = 60;
    public static final int ETP_LOG_FILE_MODE = 64;
    public static final int ETP_FLUSH_TIMER = 68;
    public static final int ETP_ENABLE_FLAGS = 72;
    public static final int ETP_AGE_LIMIT = 76;
    public static final int ETP_NUMBER_OF_BUFFERS = 80;
    public static final int ETP_FREE_BUFFERS = 84;
    public static final int ETP_EVENTS_LOST = 88;
    public static final int ETP_BUFFERS_WRITTEN = 92;
    public static final int ETP_LOG_BUFFERS_LOST = 96;
    public static final int ETP_REAL_TIME_BUFFERS_LOST = 100;
    public static final int ETP_LOGGER_THREAD_ID = 104;
    /** sizeof(EVENT_TRACE_PROPERTIES): 120 on both (4 bytes of tail padding on x86). */
    public static final int ETP_SIZE = 120;

    // EVENT_TRACE_HEADER (48) and EVENT_INSTANCE_HEADER (56): identical on both architectures.
    public static final int EVENT_TRACE_HEADER_SIZE = 48;
    public static final int EVENT_INSTANCE_HEADER_SIZE = 56;
    public static final int EH_SIZE = 0;
    public static final int EH_FIELD_TYPE_FLAGS = 2;
    public static final int EH_HEADER_TYPE = 2;
    public static final int EH_MARKER_FLAGS = 3;
    /** ULONG Version: the roll-up of Class.Type (low byte), Class.Level, Class.Version (high 16 bits). */
    public static final int EH_VERSION = 4;
    public static final int EH_CLASS_TYPE = 4;
    public static final int EH_CLASS_LEVEL = 5;
    public static final int EH_CLASS_VERSION = 6;
    public static final int EH_THREAD_ID = 8;
    public static final int EH_PROCESS_ID = 12;
    public static final int EH_TIMESTAMP = 16;
    public static final int ETH_GUID = 24;
    public static final int ETH_GUID_PTR = 24;
    public static final int EIH_REG_HANDLE = 24;
    public static final int EIH_INSTANCE_ID = 32;
    public static final int EIH_PARENT_INSTANCE_ID = 36;
    public static final int EH_KERNEL_TIME = 40;
    public static final int EH_USER_TIME = 44;
    public static final int EH_PROCESSOR_TIME = 40;
    /** EVENT_TRACE_HEADER only: ClientContext in the union at 40. */
    public static final int ETH_CLIENT_CONTEXT = 40;
    /** EVENT_INSTANCE_HEADER only: EventId in the union at 40. */
    public static final int EIH_EVENT_ID = 40;
    public static final int EH_FLAGS = 44;
    public static final int EIH_PARENT_REG_HANDLE = 48;

    // MOF_FIELD (16 on both).
    public static final int MOF_FIELD_SIZE = 16;
    public static final int MOF_DATA_PTR = 0;
    public static final int MOF_LENGTH = 8;
    public static final int MOF_DATA_TYPE = 12;
    public static final int MAX_MOF_FIELDS = 16;

    public static final int GUID_SIZE = 16;

    private final int pointerSize;

    private EtwLayout(int pointerSize) {
        this.pointerSize = pointerSize;
    }

    /** The layout of the running JVM (sun.arch.data.model, which every HotSpot JVM reports). */
    public static EtwLayout current() {
        return "32".equals(System.getProperty("sun.arch.data.model")) ? X86 : X64;
    }

    public int pointerSize() { return pointerSize; }

    /** EVENT_TRACE_PROPERTIES.LogFileNameOffset's own offset: after the pointer-sized LoggerThreadId. */
    public int etpLogFileNameOffset() { return ETP_LOGGER_THREAD_ID + pointerSize; }

    public int etpLoggerNameOffset() { return etpLogFileNameOffset() + 4; }

    /** EVENT_INSTANCE_INFO {HANDLE RegHandle; ULONG InstanceId;}. */
    public int instanceInfoSize() { return 2 * pointerSize; }

    public int instanceInfoRegHandle() { return 0; }

    public int instanceInfoInstanceId() { return pointerSize; }

    /** TRACE_GUID_REGISTRATION {LPCGUID Guid; HANDLE RegHandle;}. */
    public int traceGuidRegistrationSize() { return 2 * pointerSize; }

    public int traceGuidRegistrationGuid() { return 0; }

    public int traceGuidRegistrationRegHandle() { return pointerSize; }
}
