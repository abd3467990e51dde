package dev.jetw.etw;

import java.util.List;
import java.util.UUID;

/**
 * The one interface both backends implement: ETW's session-control and classic-provider calls,
 * typed. {@code windows.WindowsBackend} maps it onto advapi32; {@code portable.PortableBackend}
 * implements the same contract in-process and writes a real .etl file.
 *
 * <p>Sessions are addressed by name, as ETW's own ControlTrace does when a name is given.
 */
public interface EtwBackend {

    /** "windows" or "portable". */
    String name();

    /**
     * Starts a session. A running session of the same name is handled by
     * {@link SessionConfig#orphanPolicy()}: stopped and started again, reused, or refused.
     */
    SessionStats startSession(SessionConfig config) throws EtwException;

    SessionStats querySession(String sessionName) throws EtwException;

    SessionStats flushSession(String sessionName) throws EtwException;

    /** ETW lets only some properties change on a running session (flush timer, maximum buffers, log file). */
    SessionStats updateSession(SessionConfig config) throws EtwException;

    /** Stops the session and returns its final statistics; {@code null} when it was not running. */
    SessionStats stopSession(String sessionName) throws EtwException;

    /** Names of the running sessions this backend can see (QueryAllTraces). */
    List<String> listSessions() throws EtwException;

    /**
     * Registers a classic provider (RegisterTraceGuids). The listener receives enable and disable
     * requests; it must only copy state, never load classes or block.
     */
    ProviderBackend registerProvider(UUID controlGuid, List<UUID> eventClassGuids, EnableListener listener)
            throws EtwException;

    /** Enables a classic provider into a session (EnableTrace / EnableTraceEx2). */
    void enableProvider(String sessionName, UUID controlGuid, int level, int enableFlags) throws EtwException;

    void disableProvider(String sessionName, UUID controlGuid) throws EtwException;

    /**
     * Writes what the running session holds now to a new log file {@code target} (created by the rules
     * of {@link TraceFiles}, with the session's overwrite= and filePermissions=) without stopping it:
     * a buffering session's ring, or a copy of a file session's log after a flush. Returns the
     * statistics after the dump.
     */
    default SessionStats dumpSession(String sessionName, java.nio.file.Path target) throws EtwException {
        throw new EtwException("ControlTraceW", Win32Error.NOT_SUPPORTED, "the " + name() + " backend cannot dump a running session");
    }
}
