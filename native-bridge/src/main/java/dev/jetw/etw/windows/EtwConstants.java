package dev.jetw.etw.windows;

/** evntrace.h / wmistr.h constants the Windows backend uses; values checked against mingw-w64 in tests. */
public final class EtwConstants {
    public static final int WNODE_FLAG_USE_TIMESTAMP = 0x00000200;
    public static final int WNODE_FLAG_TRACED_GUID = 0x00020000;
    public static final int WNODE_FLAG_LOG_WNODE = 0x00040000;
    public static final int WNODE_FLAG_USE_GUID_PTR = 0x00080000;
    public static final int WNODE_FLAG_USE_MOF_PTR = 0x00100000;
    public static final int WNODE_FLAG_NO_HEADER = 0x00200000;
    public static final int WNODE_FLAG_VERSIONED_PROPERTIES = 0x00800000;

    public static final int EVENT_TRACE_CONTROL_QUERY = 0;
    public static final int EVENT_TRACE_CONTROL_STOP = 1;
    public static final int EVENT_TRACE_CONTROL_UPDATE = 2;
    public static final int EVENT_TRACE_CONTROL_FLUSH = 3;

    public static final int EVENT_CONTROL_CODE_DISABLE_PROVIDER = 0;
    public static final int EVENT_CONTROL_CODE_ENABLE_PROVIDER = 1;
    public static final int EVENT_CONTROL_CODE_CAPTURE_STATE = 2;

    public static final int WMI_ENABLE_EVENTS = 4;
    public static final int WMI_DISABLE_EVENTS = 5;
    public static final int WMI_ENABLE_COLLECTION = 6;
    public static final int WMI_DISABLE_COLLECTION = 7;
    public static final int WMI_CAPTURE_STATE = 10;

    public static final int EVENT_TRACE_SYSTEM_LOGGER_MODE = 0x02000000;
    public static final int EVENT_TRACE_REAL_TIME_MODE = 0x00000100;

    /** L"NT Kernel Logger". */
    public static final String KERNEL_LOGGER_NAME = "NT Kernel Logger";
    /** {9e814aad-3204-11d2-9a82-006008a86939}. */
    public static final String SYSTEM_TRACE_CONTROL_GUID = "9e814aad-3204-11d2-9a82-006008a86939";

    /** Room for each name after the properties (1,024 UTF-16 characters, as PerfView allocates). */
    public static final int MAX_NAME_CHARS = 1024;

    private EtwConstants() {
    }
}
