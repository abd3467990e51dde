package dev.jetw.etw;

/**
 * A failed ETW call: the function, the Win32 code, its name, and what to do about it.
 * The portable backend raises the same codes where ETW would.
 */
public class EtwException extends Exception {

    private final String function;
    private final int code;

    public EtwException(String function, int code, String detail) {
        this(function, code, format(function, code, detail, Win32Error.advice(function, code)), true);
    }

    /**
     * The same code with advice of the caller's instead of ETW's ({@link Win32Error#advice}): the portable backend's
     * sessions live in the process, so ETW's remedies (logman, EtwMaxLoggers, a provider's enable callback) do not
     * apply to them on any host.
     */
    public EtwException(String function, int code, String detail, String advice) {
        this(function, code, format(function, code, detail, advice), true);
    }

    /** {@code worded}: the message is complete (see {@link #file}); the flag only tells the constructors apart. */
    private EtwException(String function, int code, String message, boolean worded) {
        super(message);
        this.function = function;
        this.code = code;
    }

    /**
     * A failed file operation on {@code subject} ("log file /x/a.etl"), in this platform's words: on Windows
     * the Win32 code, the OS's words and {@link Win32Error#advice}; on Linux and macOS the errno name, the
     * OS's words and advice for them from the table of file errors ({@link FileError}). {@link #code()} is
     * the Win32 code everywhere.
     */
    public static EtwException file(String function, String subject, java.io.IOException e) {
        return file(function, subject, e, FileError.WINDOWS);
    }

    static EtwException file(String function, String subject, java.io.IOException e, boolean windows) {
        int code = TraceFiles.win32Code(e);
        if (windows) {
            return new EtwException(function, code, subject + ": " + TraceFiles.cause(e));
        }
        FileError f = FileError.of(e);
        StringBuilder sb = new StringBuilder(function).append(" failed: ");
        if (e instanceof TraceFiles.RefusedException) { // jetw's rule, named by the errno the OS would give
            sb.append(f.describe()).append(": ").append(subject).append(": ").append(e.getMessage());
        } else if (f != null) {
            sb.append(f.name()).append(" (").append(TraceFiles.cause(e)).append("): ").append(subject);
        } else {
            sb.append(TraceFiles.cause(e)).append(": ").append(subject);
        }
        if (f != null) {
            sb.append(". ").append(f.advice());
        }
        return new EtwException(function, code, sb.toString(), true);
    }

    /** The Windows function (or its portable counterpart) that failed, e.g. "StartTraceW". */
    public String function() {
        return function;
    }

    /** The Win32 error code. */
    public int code() {
        return code;
    }

    /** The symbolic name of {@link #code()}, e.g. "ERROR_ACCESS_DENIED". */
    public String codeName() {
        return Win32Error.name(code);
    }

    private static String format(String function, int code, String detail, String advice) {
        StringBuilder sb = new StringBuilder();
        sb.append(function).append(" failed: ").append(Win32Error.name(code)).append(" (").append(code).append(")");
        if (detail != null && !detail.isEmpty()) {
            sb.append(": ").append(detail);
        }
        if (advice != null) {
            sb.append(". ").append(advice);
        }
        return sb.toString();
    }
}
