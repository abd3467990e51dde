package dev.jetw.etw.windows;

/**
 * The Windows version as {@code os.version} reports it ("6.1" = Windows 7, "6.2" = Windows 8,
 * "10.0" = Windows 10/11). The backend picks its calls by version: EnableTraceEx2 needs Windows 7,
 * kernel flags in an ordinary session (system-logger mode) need Windows 8.
 */
public final class WindowsVersion {

    private final int major;
    private final int minor;

    public WindowsVersion(int major, int minor) {
        this.major = major;
        this.minor = minor;
    }

    /** Parses "major.minor[.more]"; anything unparsable counts as 0.0 (the oldest behaviour). */
    public static WindowsVersion parse(String osVersion) {
        if (osVersion == null) {
            return new WindowsVersion(0, 0);
        }
        String[] parts = osVersion.trim().split("\\.");
        return new WindowsVersion(number(parts, 0), number(parts, 1));
    }

    /** The running system's version (the {@code os.version} system property). */
    public static WindowsVersion current() {
        return parse(System.getProperty("os.version"));
    }

    private static int number(String[] parts, int i) {
        if (i >= parts.length) {
            return 0;
        }
        String p = parts[i];
        int end = 0;
        while (end < p.length() && Character.isDigit(p.charAt(end))) {
            end++;
        }
        try {
            return end == 0 ? 0 : Integer.parseInt(p.substring(0, end));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    public int major() { return major; }

    public int minor() { return minor; }

    public boolean isAtLeast(int wantMajor, int wantMinor) {
        return major > wantMajor || (major == wantMajor && minor >= wantMinor);
    }

    /** EnableTraceEx2 exists from Windows 7 (6.1). */
    public boolean hasEnableTraceEx2() {
        return isAtLeast(6, 1);
    }

    /** Kernel events in an ordinary session (EVENT_TRACE_SYSTEM_LOGGER_MODE) from Windows 8 (6.2). */
    public boolean hasSystemLoggerMode() {
        return isAtLeast(6, 2);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
