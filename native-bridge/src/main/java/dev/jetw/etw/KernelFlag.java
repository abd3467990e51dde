package dev.jetw.etw;

/** The 26 documented EVENT_TRACE_FLAG_* kernel enable flags, with option names. */
public enum KernelFlag {
    PROCESS(0x00000001),
    THREAD(0x00000002),
    IMAGE_LOAD(0x00000004),
    PROCESS_COUNTERS(0x00000008),
    CSWITCH(0x00000010),
    DPC(0x00000020),
    INTERRUPT(0x00000040),
    SYSTEMCALL(0x00000080),
    DISK_IO(0x00000100),
    DISK_FILE_IO(0x00000200),
    DISK_IO_INIT(0x00000400),
    DISPATCHER(0x00000800),
    MEMORY_PAGE_FAULTS(0x00001000),
    MEMORY_HARD_FAULTS(0x00002000),
    VIRTUAL_ALLOC(0x00004000),
    VAMAP(0x00008000),
    NETWORK_TCPIP(0x00010000),
    REGISTRY(0x00020000),
    DBGPRINT(0x00040000),
    JOB(0x00080000),
    ALPC(0x00100000),
    SPLIT_IO(0x00200000),
    DEBUG_EVENTS(0x00400000),
    DRIVER(0x00800000),
    PROFILE(0x01000000),
    FILE_IO(0x02000000),
    FILE_IO_INIT(0x04000000),
    NO_SYSCONFIG(0x10000000);

    private final int bits;

    KernelFlag(int bits) {
        this.bits = bits;
    }

    public int bits() {
        return bits;
    }

    /** Lower-case option name, e.g. "disk_io". */
    public String optionName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The flag named {@code name} (case-insensitive, '-' and '_' alike), or null. */
    public static KernelFlag byOptionName(String name) {
        String n = name.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
        for (KernelFlag f : values()) {
            if (f.name().equals(n)) {
                return f;
            }
        }
        return null;
    }
}
