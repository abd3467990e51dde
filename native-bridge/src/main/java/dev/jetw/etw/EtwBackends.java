package dev.jetw.etw;

import java.util.Locale;

/**
 * Chooses a backend: {@code windows} (advapi32 through JNA), {@code portable} (in-process, writes
 * .etl), or {@code auto} (windows on Windows, portable elsewhere). Backends load by name so that
 * nothing touches JNA on a host without ETW.
 */
public final class EtwBackends {

    static final String WINDOWS_CLASS = "dev.jetw.etw.windows.WindowsBackend";
    static final String PORTABLE_CLASS = "dev.jetw.etw.portable.PortableBackend";

    private EtwBackends() {
    }

    public static boolean isWindows() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    }

    /** Creates the backend named {@code kind}; throws {@link ConfigException} for an unknown name or an impossible choice. */
    public static EtwBackend create(String kind) {
        String k = kind == null ? "auto" : kind.trim().toLowerCase(Locale.ROOT);
        switch (k) {
            case "auto":
                return load(isWindows() ? WINDOWS_CLASS : PORTABLE_CLASS);
            case "windows":
                if (!isWindows()) {
                    throw new ConfigException("backend", kind, "windows needs Windows (ETW); this host runs "
                            + System.getProperty("os.name") + ": use backend=portable or backend=auto");
                }
                return load(WINDOWS_CLASS);
            case "portable":
                return load(PORTABLE_CLASS);
            default:
                throw new ConfigException("backend", kind, "allowed: windows, portable, auto");
        }
    }

    private static EtwBackend load(String className) {
        try {
            return (EtwBackend) Class.forName(className, true, EtwBackends.class.getClassLoader())
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create backend " + className + ": " + e, e);
        }
    }
}
