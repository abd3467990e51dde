package dev.jetw.etw;

/**
 * A failed ETW call: the function, the Win32 code, its name, and what to do about it.
 * The portable backend raises the same codes where ETW would.
 */
public class EtwException extends Exception {

    private final String function;
    private final int code;

    public EtwException(String function, int code, String detail) {
        super(format(function, code, detail));
        this.function = function;
        this.code = code;
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

    private static String format(String function, int code, String detail) {
        StringBuilder sb = new StringBuilder();
        sb.append(function).append(" failed: ").append(Win32Error.name(code)).append(" (").append(code).append(")");
        String advice = Win32Error.advice(function, code);
        if (detail != null && !detail.isEmpty()) {
            sb.append(": ").append(detail);
        }
        if (advice != null) {
            sb.append(". ").append(advice);
        }
        return sb.toString();
    }
}
