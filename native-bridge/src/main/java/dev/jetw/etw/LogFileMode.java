package dev.jetw.etw;

/** The log-file modes jetw accepts, with their LogFileMode bits (evntrace.h) and option names. */
public enum LogFileMode {
    SEQUENTIAL("sequential", 0x00000001),
    CIRCULAR("circular", 0x00000002),
    APPEND("append", 0x00000004),
    NEWFILE("newfile", 0x00000008),
    PREALLOCATE("preallocate", 0x00000020),
    REAL_TIME("real-time", 0x00000100),
    BUFFERING("buffering", 0x00000400),
    PRIVATE("private", 0x00000800),
    PRIVATE_IN_PROC("private-in-proc", 0x00020000 | 0x00000800),
    SYSTEM_LOGGER("system-logger", 0x02000000),
    INDEPENDENT_SESSION("independent-session", 0x08000000),
    NO_PER_PROCESSOR_BUFFERING("no-per-processor-buffering", 0x10000000);

    private final String optionName;
    private final int bits;

    LogFileMode(String optionName, int bits) {
        this.optionName = optionName;
        this.bits = bits;
    }

    public String optionName() {
        return optionName;
    }

    public int bits() {
        return bits;
    }

    /** The mode named {@code name} (case-insensitive, '_' and '-' alike), or null. */
    public static LogFileMode byOptionName(String name) {
        String n = name.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        for (LogFileMode m : values()) {
            if (m.optionName.equals(n) || m.optionName.replace("-", "").equals(n)) {
                return m;
            }
        }
        return null;
    }
}
