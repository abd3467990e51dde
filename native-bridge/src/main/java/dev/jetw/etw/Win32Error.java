package dev.jetw.etw;

/** Win32 error codes the ETW calls document, with names and the action each one calls for. */
public final class Win32Error {
    public static final int SUCCESS = 0;
    public static final int INVALID_FUNCTION = 1;
    public static final int FILE_NOT_FOUND = 2;
    public static final int PATH_NOT_FOUND = 3;
    public static final int TOO_MANY_OPEN_FILES = 4;
    public static final int ACCESS_DENIED = 5;
    public static final int INVALID_HANDLE = 6;
    public static final int NOT_ENOUGH_MEMORY = 8;
    public static final int INVALID_DATA = 13;
    /** A read-only file system (the disk is write-protected, in Win32's words). */
    public static final int WRITE_PROTECT = 19;
    /** Any other failure to write the log file. */
    public static final int WRITE_FAULT = 29;
    public static final int OUTOFMEMORY = 14;
    public static final int BAD_LENGTH = 24;
    public static final int SHARING_VIOLATION = 32;
    public static final int NOT_SUPPORTED = 50;
    /** The log file exists and jetw does not replace it (see TraceFiles). */
    public static final int FILE_EXISTS = 80;
    public static final int INVALID_PARAMETER = 87;
    public static final int DISK_FULL = 112;
    public static final int INSUFFICIENT_BUFFER = 122;
    public static final int INVALID_NAME = 123;
    public static final int BAD_PATHNAME = 161;
    /** The file passed the largest size its file system (or the process's limit) allows. */
    public static final int FILE_TOO_LARGE = 223;
    /** The portable backend's answer to a write re-entering its own thread's scratch (ETW has no such case). */
    public static final int BUSY = 170;
    public static final int ALREADY_EXISTS = 183;
    public static final int INVALID_FLAG_NUMBER = 186;
    public static final int MORE_DATA = 234;
    public static final int INVALID_FLAGS = 1004;
    /** AdjustTokenPrivileges succeeded but the token does not hold every privilege asked for. */
    public static final int NOT_ALL_ASSIGNED = 1300;
    public static final int PRIVILEGE_NOT_HELD = 1314;
    public static final int NO_SYSTEM_RESOURCES = 1450;
    /** ControlTrace STOP: the session is already being stopped. */
    public static final int ACTIVE_CONNECTIONS = 2402;
    public static final int TIMEOUT = 1460;
    public static final int LOG_FILE_FULL = 1502;
    public static final int WMI_GUID_NOT_FOUND = 4200;
    public static final int WMI_INSTANCE_NOT_FOUND = 4201;
    /** The log file's last path component is a symbolic link (a reparse point on Windows). */
    public static final int CANT_ACCESS_FILE = 1920;
    public static final int CTX_CLOSE_PENDING = 7007;
    /** NTSTATUS STATUS_LOG_FILE_FULL (0xC0000188) as a signed int; some paths return it unmapped. */
    public static final int STATUS_LOG_FILE_FULL = 0xC0000188;

    private Win32Error() {
    }

    public static String name(int code) {
        switch (code) {
            case SUCCESS: return "ERROR_SUCCESS";
            case INVALID_FUNCTION: return "ERROR_INVALID_FUNCTION";
            case FILE_NOT_FOUND: return "ERROR_FILE_NOT_FOUND";
            case PATH_NOT_FOUND: return "ERROR_PATH_NOT_FOUND";
            case TOO_MANY_OPEN_FILES: return "ERROR_TOO_MANY_OPEN_FILES";
            case ACCESS_DENIED: return "ERROR_ACCESS_DENIED";
            case INVALID_HANDLE: return "ERROR_INVALID_HANDLE";
            case NOT_ENOUGH_MEMORY: return "ERROR_NOT_ENOUGH_MEMORY";
            case INVALID_DATA: return "ERROR_INVALID_DATA";
            case WRITE_PROTECT: return "ERROR_WRITE_PROTECT";
            case WRITE_FAULT: return "ERROR_WRITE_FAULT";
            case OUTOFMEMORY: return "ERROR_OUTOFMEMORY";
            case BAD_LENGTH: return "ERROR_BAD_LENGTH";
            case SHARING_VIOLATION: return "ERROR_SHARING_VIOLATION";
            case NOT_SUPPORTED: return "ERROR_NOT_SUPPORTED";
            case FILE_EXISTS: return "ERROR_FILE_EXISTS";
            case INVALID_PARAMETER: return "ERROR_INVALID_PARAMETER";
            case DISK_FULL: return "ERROR_DISK_FULL";
            case INSUFFICIENT_BUFFER: return "ERROR_INSUFFICIENT_BUFFER";
            case INVALID_NAME: return "ERROR_INVALID_NAME";
            case BAD_PATHNAME: return "ERROR_BAD_PATHNAME";
            case FILE_TOO_LARGE: return "ERROR_FILE_TOO_LARGE";
            case BUSY: return "ERROR_BUSY";
            case ALREADY_EXISTS: return "ERROR_ALREADY_EXISTS";
            case INVALID_FLAG_NUMBER: return "ERROR_INVALID_FLAG_NUMBER";
            case MORE_DATA: return "ERROR_MORE_DATA";
            case INVALID_FLAGS: return "ERROR_INVALID_FLAGS";
            case NOT_ALL_ASSIGNED: return "ERROR_NOT_ALL_ASSIGNED";
            case PRIVILEGE_NOT_HELD: return "ERROR_PRIVILEGE_NOT_HELD";
            case NO_SYSTEM_RESOURCES: return "ERROR_NO_SYSTEM_RESOURCES";
            case ACTIVE_CONNECTIONS: return "ERROR_ACTIVE_CONNECTIONS";
            case TIMEOUT: return "ERROR_TIMEOUT";
            case LOG_FILE_FULL: return "ERROR_LOG_FILE_FULL";
            case WMI_GUID_NOT_FOUND: return "ERROR_WMI_GUID_NOT_FOUND";
            case WMI_INSTANCE_NOT_FOUND: return "ERROR_WMI_INSTANCE_NOT_FOUND";
            case CANT_ACCESS_FILE: return "ERROR_CANT_ACCESS_FILE";
            case CTX_CLOSE_PENDING: return "ERROR_CTX_CLOSE_PENDING";
            case STATUS_LOG_FILE_FULL: return "STATUS_LOG_FILE_FULL";
            default: return "Win32 error";
        }
    }

    /** What the user should do, or null when the code needs no advice beyond its name. */
    public static String advice(String function, int code) {
        switch (code) {
            case ACCESS_DENIED:
                return "Controlling ETW sessions needs an elevated Administrator, membership of the"
                        + " 'Performance Log Users' group, or LocalSystem/LocalService/NetworkService;"
                        + " kernel events need an elevated Administrator";
            case ALREADY_EXISTS:
                return "A session with this name or GUID is already running: stop it"
                        + " (logman stop <name> -ets), pick another session name, or set orphan=restart|reuse";
            case BAD_PATHNAME:
                return "The log file's folder does not exist (ETW does not create it), or another session"
                        + " already writes to this file";
            case PATH_NOT_FOUND:
            case FILE_NOT_FOUND:
                return "The log file's folder does not exist; create it first";
            case SHARING_VIOLATION:
                return "Another session or process is writing this log file; choose another file";
            case DISK_FULL:
                return "Not enough disk space for the log file (Windows keeps 200 MB free on the system drive)";
            case WRITE_PROTECT:
                return "The log file's file system is read-only; choose a writable folder";
            case WRITE_FAULT:
                return "The log file could not be written; the cause is in the message";
            case FILE_EXISTS:
                return "jetw does not replace an existing file: choose a new name, or set overwrite=true to replace"
                        + " a regular file (never a link or a file with several hard links)";
            case CANT_ACCESS_FILE:
                return "jetw does not write through a symbolic link or reparse point: name the file itself";
            case NO_SYSTEM_RESOURCES:
                return "The machine runs its maximum number of ETW sessions (64 by default); stop unused"
                        + " sessions (logman query -ets) or raise EtwMaxLoggers";
            case WMI_INSTANCE_NOT_FOUND:
                return "The session is not running";
            case ACTIVE_CONNECTIONS:
                return "The session is already being stopped";
            case INVALID_PARAMETER:
                return "A session property is invalid or a combination of log-file modes is not allowed";
            case BAD_LENGTH:
                return "The properties buffer is too small for the session and log-file names";
            case LOG_FILE_FULL:
            case STATUS_LOG_FILE_FULL:
                return "The session's log is full (a real-time session without a consumer, or a"
                        + " sequential file at its maximum size)";
            case NOT_ENOUGH_MEMORY:
            case OUTOFMEMORY:
                return "The session ran out of free buffers; raise maxBuffers or bufferSize";
            case TIMEOUT:
                return "The provider's enable callback did not finish in time";
            case INVALID_FUNCTION:
            case WMI_GUID_NOT_FOUND:
                return "The provider is not registered; register it (RegisterTraceGuids) before changing its"
                        + " level or flags";
            case INVALID_HANDLE:
                return "The session handle is stale (the session stopped) or is the NT Kernel Logger's,"
                        + " which takes no classic provider events";
            case MORE_DATA:
                return "The properties buffer was too small for the reply; on a stop, ETW has already stopped"
                        + " the session";
            case INVALID_FLAGS:
            case INVALID_FLAG_NUMBER:
                return "The event header's Flags are invalid (WNODE_FLAG_TRACED_GUID is required)";
            default:
                return null;
        }
    }

    /** True for the per-event codes that mean "this event was dropped", which are counted, never thrown. */
    public static boolean isEventDropped(int code) {
        return code == NOT_ENOUGH_MEMORY || code == OUTOFMEMORY || code == MORE_DATA
                || code == LOG_FILE_FULL || code == STATUS_LOG_FILE_FULL || code == BUSY;
    }
}
