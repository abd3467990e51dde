package dev.jetw.etw;

/** What start does when a session of the same name is already running (ETW sessions outlive their process). */
public enum OrphanPolicy {
    /** Stop the running session and start ours (the documented advice, and PerfView's and krabsetw's default). */
    RESTART,
    /** Keep the running session and log into it. */
    REUSE,
    /** Refuse with ERROR_ALREADY_EXISTS. */
    FAIL;

    public String optionName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
