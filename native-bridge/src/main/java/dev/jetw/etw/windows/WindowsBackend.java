package dev.jetw.etw.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jetw.etw.ClockType;
import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwException;
import dev.jetw.etl.Guids;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.OrphanPolicy;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.TraceFiles;
import dev.jetw.etw.Win32Error;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ETW backend over advapi32 ({@link NativeEtw}). Call sequence, orphan policy, kernel
 * correlation and error handling: docs/windows-backend.md.
 */
public final class WindowsBackend implements EtwBackend {

    static final UUID ZERO_GUID = new UUID(0, 0);
    static final UUID SYSTEM_TRACE_CONTROL_GUID = UUID.fromString(EtwConstants.SYSTEM_TRACE_CONTROL_GUID);
    /** EnableTraceEx2 waits this long for the provider's callback (0 would make it asynchronous). */
    static final int ENABLE_TIMEOUT_MS = 5000;
    /** PerfView's pause between stopping an orphan and starting again. */
    static final long RESTART_PAUSE_MS = 100;
    /** QueryAllTraces: the default logger limit is 64; EtwMaxLoggers allows up to 256. */
    static final int QUERY_ALL_FIRST = 64;
    static final int QUERY_ALL_MAX = 256;

    private static final int PRIVATE_LOGGER_MODE = LogFileMode.PRIVATE.bits();
    private static final int BUFFERING_MODE = LogFileMode.BUFFERING.bits();

    private final NativeEtw etw;
    private final EtwLayout layout;
    private final WindowsVersion version;

    /** Sessions this backend started or attached to, by lower-case name (ETW's names are case-insensitive). */
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Map<UUID, WindowsProvider> providers = new ConcurrentHashMap<>();
    /** Buffer size (KB) of the session each control GUID was enabled into, for the payload limit. */
    private final Map<UUID, Integer> enabledBufferKb = new ConcurrentHashMap<>();
    /** The session (CONTROLTRACE_ID) each control GUID was enabled into: a provider registered later writes there. */
    private final Map<UUID, Long> enabledSession = new ConcurrentHashMap<>();
    /** A private session's Wnode.Guid must be the control GUID of a provider registered before it starts. */
    private volatile UUID lastRegisteredControlGuid;

    /** What jetw remembers of a running session: enough to address it again and stop its companion. */
    static final class Session {
        final String name;
        final long id;
        final UUID guid;
        final int logFileMode;
        final int bufferSizeKb;
        /** Before Windows 8 the kernel flags run in the NT Kernel Logger, started with this session. */
        final boolean kernelCompanion;
        /** Wnode.ClientContext: the session's clock, which caller-set time stamps must use (0 = QPC, the default). */
        int clientContext;
        /** A buffering session's {@code file=}: not given to StartTrace; a FLUSH names it to write the ring there. */
        String ringFile;

        Session(String name, long id, UUID guid, int logFileMode, int bufferSizeKb, boolean kernelCompanion) {
            this.name = name;
            this.id = id;
            this.guid = guid;
            this.logFileMode = logFileMode;
            this.bufferSizeKb = bufferSizeKb;
            this.kernelCompanion = kernelCompanion;
        }
    }

    /** advapi32, the running JVM's layout and the running Windows version. */
    public WindowsBackend() {
        this(JnaNativeEtw.loadAdvapi32(), EtwLayout.current(), WindowsVersion.current());
    }

    public WindowsBackend(NativeEtw etw, EtwLayout layout, WindowsVersion version) {
        this.etw = etw;
        this.layout = layout;
        this.version = version;
    }

    @Override
    public String name() {
        return "windows";
    }

    /** How the per-event calls cross into advapi32: {@code "ffm"}, {@code "jna-direct"}, or {@code "other"} for a binding that is not JNA's (tests). */
    public String perEventCrossing() {
        return etw instanceof JnaNativeEtw ? ((JnaNativeEtw) etw).perEventCrossing() : "other";
    }

    // ---------------------------------------------------------------- sessions

    @Override
    public SessionStats startSession(SessionConfig config) throws EtwException {
        String name = config.sessionName();
        String file = config.logFile() == null ? null : config.logFile().toString();
        int modes = config.logFileModeBits();
        int kernelFlags = config.kernelFlagBits();
        boolean companion = kernelFlags != 0 && !version.hasSystemLoggerMode();
        UUID guid = ZERO_GUID;
        int sessionFlags = 0;
        if (companion) {
            modes &= ~EtwConstants.EVENT_TRACE_SYSTEM_LOGGER_MODE;
        } else if (kernelFlags != 0) {
            modes |= EtwConstants.EVENT_TRACE_SYSTEM_LOGGER_MODE;
            sessionFlags = kernelFlags;
        }
        if ((modes & EtwConstants.EVENT_TRACE_SYSTEM_LOGGER_MODE) != 0) {
            // A system logger needs a GUID of its own, not SystemTraceControlGuid (docs §6).
            guid = UUID.randomUUID();
        }
        if ((modes & PRIVATE_LOGGER_MODE) != 0) {
            guid = lastRegisteredControlGuid;
            if (guid == null) {
                throw new EtwException("StartTraceW", Win32Error.INVALID_PARAMETER, "session '" + name
                        + "' is private: its GUID must be a registered provider's control GUID; register the"
                        + " provider before starting a private session");
            }
        }
        if (!config.has(LogFileMode.APPEND)) { // append mode writes into the existing file by design
            EtwLogFiles.check("StartTraceW", TraceFiles.of(config), file);
            EtwLogFiles.check("StartTraceW", TraceFiles.of(config), companion ? kernelFileName(file) : null);
        }
        if (SystemProfilePrivilege.isNeeded(kernelFlags)) {
            SystemProfilePrivilege.enable(etw, layout); // before StartTrace, as PerfView does
        }
        // An in-memory ring starts without a log file, as PerfView starts its in-memory circular sessions
        // (TraceEventSession.GetProperties: LogFileNameOffset = 0 with EVENT_TRACE_BUFFERING_MODE); a FLUSH
        // naming the file writes the ring there (flushSession, dumpSession).
        boolean ring = (modes & BUFFERING_MODE) != 0;
        String startFile = ring ? null : file;
        Session main = start(config, name, startFile, guid, modes, sessionFlags, companion);
        main.ringFile = ring ? file : null;
        sessions.put(key(name), main);
        if (companion) {
            try {
                int kernelModes = modes & ~(PRIVATE_LOGGER_MODE | LogFileMode.PRIVATE_IN_PROC.bits());
                Session kernel = start(config, EtwConstants.KERNEL_LOGGER_NAME, kernelFileName(startFile),
                        SYSTEM_TRACE_CONTROL_GUID, kernelModes, kernelFlags, false);
                sessions.put(key(EtwConstants.KERNEL_LOGGER_NAME), kernel);
            } catch (EtwException e) {
                sessions.remove(key(name));
                stopQuietly(main);
                throw e;
            }
        }
        try {
            return querySession(name);
        } catch (EtwException e) {
            // The session runs; failing now would leave it running with nobody to stop it.
            return new SessionStats(name, file, 0, 0, 0, 0, 0, 0, 0);
        }
    }

    /** "trace.etl" → "trace-kernel.etl"; other names get "-kernel" appended; null stays null (real-time). */
    static String kernelFileName(String file) {
        if (file == null) {
            return null;
        }
        int dot = file.lastIndexOf('.');
        int sep = Math.max(file.lastIndexOf('\\'), file.lastIndexOf('/'));
        return dot > sep ? file.substring(0, dot) + "-kernel" + file.substring(dot) : file + "-kernel";
    }

    private Session start(SessionConfig config, String name, String file, UUID guid, int modes, int enableFlags,
                          boolean companion) throws EtwException {
        Memory wideName = PropertiesBuffer.wideString(name);
        Memory idOut = new Memory(8);
        idOut.clear();
        int code = etw.StartTraceW(idOut, wideName, startProperties(config, name, file, guid, modes, enableFlags).pointer());
        if (code == Win32Error.ALREADY_EXISTS) {
            switch (config.orphanPolicy()) {
                case REUSE:
                    PropertiesBuffer q = controlProperties(guid, modes);
                    int qc = etw.ControlTraceW(0, wideName, q.pointer(), EtwConstants.EVENT_TRACE_CONTROL_QUERY);
                    if (qc != Win32Error.SUCCESS) {
                        throw new EtwException("ControlTraceW", qc, "querying the running session '" + name
                                + "' to reuse it (orphan=reuse)");
                    }
                    Session reused = new Session(name, q.historicalContext(), guid, modes,
                            q.getInt(EtwLayout.ETP_BUFFER_SIZE), companion);
                    reused.clientContext = q.getInt(EtwLayout.WNODE_CLIENT_CONTEXT);
                    return reused;
                case RESTART:
                    int sc = etw.ControlTraceW(0, wideName, controlProperties(guid, modes).pointer(),
                            EtwConstants.EVENT_TRACE_CONTROL_STOP);
                    if (sc != Win32Error.SUCCESS && !isAlreadyStopped(sc)) {
                        throw new EtwException("ControlTraceW", sc, "stopping the running session '" + name
                                + "' to start it again (orphan=restart)");
                    }
                    pause();
                    idOut.clear();
                    code = etw.StartTraceW(idOut, wideName,
                            startProperties(config, name, file, guid, modes, enableFlags).pointer());
                    break;
                case FAIL:
                default:
                    break;
            }
        }
        if (code != Win32Error.SUCCESS) {
            throw new EtwException("StartTraceW", code, "session '" + name + "'"
                    + (file != null ? ", log file " + file : (modes & BUFFERING_MODE) != 0 ? " (in-memory ring)"
                    : " (real-time, no log file)")
                    + (code == Win32Error.ALREADY_EXISTS ? ", orphan=" + config.orphanPolicy().optionName() : ""));
        }
        Session started = new Session(name, idOut.getLong(0), guid, modes, config.bufferSizeKb(), companion);
        started.clientContext = config.clock().clientContext();
        return started;
    }

    private static void pause() {
        try {
            Thread.sleep(RESTART_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The full StartTrace properties (docs §5.3 step 1). */
    PropertiesBuffer startProperties(SessionConfig config, String name, String file, UUID guid, int modes,
                                     int enableFlags) throws EtwException {
        PropertiesBuffer p = new PropertiesBuffer(layout);
        p.setInt(EtwLayout.WNODE_CLIENT_CONTEXT, config.clock().clientContext());
        p.setGuid(guid);
        p.setInt(EtwLayout.ETP_BUFFER_SIZE, config.bufferSizeKb());
        p.setInt(EtwLayout.ETP_MINIMUM_BUFFERS, config.minimumBuffers());
        p.setInt(EtwLayout.ETP_MAXIMUM_BUFFERS, config.maximumBuffers());
        p.setInt(EtwLayout.ETP_MAXIMUM_FILE_SIZE, config.maximumFileSizeMb());
        p.setInt(EtwLayout.ETP_LOG_FILE_MODE, modes);
        p.setInt(EtwLayout.ETP_FLUSH_TIMER, config.flushTimerSeconds());
        p.setInt(EtwLayout.ETP_ENABLE_FLAGS, enableFlags);
        try {
            p.setSessionName(name);
            p.setLogFileName(file);
        } catch (IllegalArgumentException e) {
            throw new EtwException("StartTraceW", Win32Error.BAD_LENGTH, e.getMessage());
        }
        return p;
    }

    /**
     * A fresh zeroed buffer for ControlTrace: BufferSize, Flags, Guid and both offsets, plus
     * LogFileMode for a private session (ControlTraceW docs).
     */
    PropertiesBuffer controlProperties(UUID guid, int modes) {
        PropertiesBuffer p = new PropertiesBuffer(layout);
        p.setGuid(guid);
        if ((modes & PRIVATE_LOGGER_MODE) != 0) {
            p.setInt(EtwLayout.ETP_LOG_FILE_MODE, modes);
        }
        return p;
    }

    private PropertiesBuffer controlProperties(String name) {
        Session s = sessions.get(key(name));
        if (s != null) {
            return controlProperties(s.guid, s.logFileMode);
        }
        return controlProperties(EtwConstants.KERNEL_LOGGER_NAME.equalsIgnoreCase(name)
                ? SYSTEM_TRACE_CONTROL_GUID : ZERO_GUID, 0);
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * STOP by name: ERROR_WMI_INSTANCE_NOT_FOUND (not running), ERROR_MORE_DATA (stopped, stats lost) and
     * ERROR_ACTIVE_CONNECTIONS (ControlTraceW: the session is already being stopped).
     */
    static boolean isAlreadyStopped(int code) {
        return code == Win32Error.WMI_INSTANCE_NOT_FOUND || code == Win32Error.MORE_DATA
                || code == Win32Error.ACTIVE_CONNECTIONS;
    }

    @Override
    public SessionStats querySession(String sessionName) throws EtwException {
        return control(sessionName, EtwConstants.EVENT_TRACE_CONTROL_QUERY, "query");
    }

    /**
     * FLUSH. A buffering session started with {@code file=} is flushed into that file: the FLUSH names it
     * at LogFileNameOffset, which is how PerfView writes an in-memory session to a file (see
     * {@link #dumpSession}); that is what {@code dumpOnExit} and the selftest's buffering step rely on.
     */
    @Override
    public SessionStats flushSession(String sessionName) throws EtwException {
        Session s = sessions.get(key(sessionName));
        if (s != null && (s.logFileMode & BUFFERING_MODE) != 0) {
            return flushRing(s, s.ringFile, "flush");
        }
        return control(sessionName, EtwConstants.EVENT_TRACE_CONTROL_FLUSH, "flush");
    }

    /**
     * One FLUSH of a buffering session whose LogFileNameOffset names {@code file} (none: offset 0, no
     * empty name for ETW to take as a file). Microsoft: in buffering mode "To get a snapshot of the
     * buffer, call the FlushTrace function" (Logging Mode Constants), and FlushTrace "can be used with
     * in-memory sessions (sessions started with the EVENT_TRACE_BUFFERING_MODE flag) to write the data
     * from the trace to a file"; ControlTrace's FLUSH supersedes FlushTrace and takes the same members.
     */
    private SessionStats flushRing(Session s, String file, String what) throws EtwException {
        PropertiesBuffer p = controlProperties(s.guid, s.logFileMode);
        try {
            if (file == null) {
                p.keepLogFile();
            } else {
                p.setLogFileName(file);
            }
        } catch (IllegalArgumentException e) {
            throw new EtwException("ControlTraceW", Win32Error.BAD_LENGTH, e.getMessage());
        }
        int code = etw.ControlTraceW(0, PropertiesBuffer.wideString(s.name), p.pointer(),
                EtwConstants.EVENT_TRACE_CONTROL_FLUSH);
        if (code != Win32Error.SUCCESS) {
            throw new EtwException("ControlTraceW", code, what + " of session '" + s.name + "'"
                    + (file == null ? "" : " to " + file));
        }
        SessionStats st = p.stats(s.name);
        return file == null ? st : new SessionStats(st.sessionName(), file, st.numberOfBuffers(), st.freeBuffers(),
                st.eventsLost(), st.buffersWritten(), st.logBuffersLost(), st.realTimeBuffersLost(), st.loggerThreadId());
    }

    private SessionStats control(String name, int controlCode, String what) throws EtwException {
        PropertiesBuffer p = controlProperties(name);
        int code = etw.ControlTraceW(0, PropertiesBuffer.wideString(name), p.pointer(), controlCode);
        if (code != Win32Error.SUCCESS) {
            throw new EtwException("ControlTraceW", code, what + " of session '" + name + "'");
        }
        return p.stats(name);
    }

    /**
     * UPDATE: FlushTimer, MaximumBuffers, the real-time bit and a new log file (ControlTraceW docs);
     * a private session takes only FlushTimer and the log file. The log file switches only when it
     * differs from the running one (a non-zero LogFileNameOffset with the same name is an error).
     * EnableFlags carries the running session's flags, read by the QUERY before: ControlTraceW's
     * documentation says 0 disables all kernel providers of a system logger or the NT Kernel Logger.
     */
    @Override
    public SessionStats updateSession(SessionConfig config) throws EtwException {
        String name = config.sessionName();
        PropertiesBuffer running = controlProperties(name);
        int qc = etw.ControlTraceW(0, PropertiesBuffer.wideString(name), running.pointer(), EtwConstants.EVENT_TRACE_CONTROL_QUERY);
        if (qc != Win32Error.SUCCESS) {
            throw new EtwException("ControlTraceW", qc, "query of session '" + name + "' before updating it");
        }
        SessionStats current = running.stats(name);
        Session s = sessions.get(key(name));
        UUID guid = s != null ? s.guid : ZERO_GUID;
        int modes = s != null ? s.logFileMode : config.logFileModeBits();
        PropertiesBuffer p = controlProperties(guid, modes);
        p.setInt(EtwLayout.ETP_FLUSH_TIMER, config.flushTimerSeconds());
        p.setInt(EtwLayout.ETP_ENABLE_FLAGS, running.getInt(EtwLayout.ETP_ENABLE_FLAGS));
        if ((modes & PRIVATE_LOGGER_MODE) == 0) {
            p.setInt(EtwLayout.ETP_MAXIMUM_BUFFERS, config.maximumBuffers());
            p.setInt(EtwLayout.ETP_LOG_FILE_MODE, config.has(LogFileMode.REAL_TIME) ? EtwConstants.EVENT_TRACE_REAL_TIME_MODE : 0);
        }
        String file = config.logFile() == null ? null : config.logFile().toString();
        try {
            if (file != null && !file.equalsIgnoreCase(current.logFile() == null ? "" : current.logFile())) {
                p.setLogFileName(file);
            } else {
                p.keepLogFile();
            }
        } catch (IllegalArgumentException e) {
            throw new EtwException("ControlTraceW", Win32Error.BAD_LENGTH, e.getMessage());
        }
        int code = etw.ControlTraceW(0, PropertiesBuffer.wideString(name), p.pointer(), EtwConstants.EVENT_TRACE_CONTROL_UPDATE);
        if (code != Win32Error.SUCCESS) {
            throw new EtwException("ControlTraceW", code, "update of session '" + name + "'");
        }
        return p.stats(name);
    }

    /**
     * A buffering session: one FLUSH whose LogFileNameOffset names the new file, no UPDATE: PerfView's
     * TraceEventSession.SetFileName for an in-memory circular session ("simply writes the snapshot to
     * the file (and closes it)"; the FLUSH's properties carry the new name), with Microsoft's FlushTrace
     * remark above ({@link #flushRing}). An UPDATE would also change the session (its EnableFlags of 0
     * would end a system logger's kernel providers) and is documented for switching a file, which a ring
     * has none of. A file session: FLUSH, then a copy of its log. The target must not exist (TraceFiles
     * rules, checked here).
     */
    @Override
    public SessionStats dumpSession(String sessionName, java.nio.file.Path target) throws EtwException {
        Session s = sessions.get(key(sessionName));
        EtwLogFiles.check("ControlTraceW", new TraceFiles(false, TraceFiles.OWNER_ONLY), target.toString());
        if (s != null && (s.logFileMode & BUFFERING_MODE) != 0) {
            return flushRing(s, target.toString(), "dump");
        }
        SessionStats flushed = flushSession(sessionName);
        if (flushed.logFile() == null) {
            throw new EtwException("ControlTraceW", Win32Error.NOT_SUPPORTED, "session '" + sessionName
                    + "' has no log file and no in-memory ring to dump");
        }
        EtwLogFiles.copy("ControlTraceW", flushed.logFile(), target);
        return flushed;
    }

    @Override
    public SessionStats stopSession(String sessionName) throws EtwException {
        Session s = sessions.remove(key(sessionName));
        SessionStats stats;
        try {
            stats = stop(sessionName, s != null ? controlProperties(s.guid, s.logFileMode) : controlProperties(sessionName));
        } finally {
            if (s != null && s.kernelCompanion) {
                sessions.remove(key(EtwConstants.KERNEL_LOGGER_NAME));
                stop(EtwConstants.KERNEL_LOGGER_NAME, controlProperties(SYSTEM_TRACE_CONTROL_GUID, 0));
            }
        }
        return stats;
    }

    /** null when the session was not running; zero statistics when ETW stopped it but could not report them (234). */
    private SessionStats stop(String name, PropertiesBuffer p) throws EtwException {
        int code = etw.ControlTraceW(0, PropertiesBuffer.wideString(name), p.pointer(), EtwConstants.EVENT_TRACE_CONTROL_STOP);
        if (code == Win32Error.SUCCESS) {
            return p.stats(name);
        }
        if (code == Win32Error.WMI_INSTANCE_NOT_FOUND) {
            return null;
        }
        if (code == Win32Error.MORE_DATA || code == Win32Error.ACTIVE_CONNECTIONS) {
            return new SessionStats(name, null, 0, 0, 0, 0, 0, 0, 0); // stopped, or being stopped: no statistics
        }
        throw new EtwException("ControlTraceW", code, "stop of session '" + name + "'");
    }

    private void stopQuietly(Session s) {
        try {
            etw.ControlTraceW(0, PropertiesBuffer.wideString(s.name), controlProperties(s.guid, s.logFileMode).pointer(),
                    EtwConstants.EVENT_TRACE_CONTROL_STOP);
        } catch (RuntimeException ignored) {
            // best effort while reporting the original failure
        }
    }

    @Override
    public List<String> listSessions() throws EtwException {
        int count = QUERY_ALL_FIRST;
        while (true) {
            int ptr = layout.pointerSize();
            long arrayBytes = (long) count * ptr;
            Memory all = new Memory(arrayBytes + (long) count * PropertiesBuffer.SIZE);
            PropertiesBuffer[] buffers = new PropertiesBuffer[count];
            for (int i = 0; i < count; i++) {
                long offset = arrayBytes + (long) i * PropertiesBuffer.SIZE;
                buffers[i] = new PropertiesBuffer(all.share(offset, PropertiesBuffer.SIZE), layout);
                long address = Pointer.nativeValue(all) + offset;
                if (ptr == 8) {
                    all.setLong((long) i * ptr, address);
                } else {
                    all.setInt((long) i * ptr, (int) address);
                }
            }
            Memory countOut = new Memory(4);
            countOut.setInt(0, 0);
            int code = etw.QueryAllTracesW(all, count, countOut);
            if (code == Win32Error.MORE_DATA && count < QUERY_ALL_MAX) {
                count = QUERY_ALL_MAX;
                continue;
            }
            if (code != Win32Error.SUCCESS) {
                throw new EtwException("QueryAllTracesW", code, "listing sessions (room for " + count + ")");
            }
            int n = Math.min(countOut.getInt(0), count);
            List<String> names = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                names.add(buffers[i].loggerName("?"));
            }
            return names;
        }
    }

    // ---------------------------------------------------------------- providers

    @Override
    public ProviderBackend registerProvider(UUID controlGuid, List<UUID> eventClassGuids, EnableListener listener)
            throws EtwException {
        if (eventClassGuids.isEmpty()) {
            throw new EtwException("RegisterTraceGuidsW", Win32Error.INVALID_PARAMETER, "control GUID {" + controlGuid
                    + "} has no event class GUID; TraceEventInstance needs at least one");
        }
        Integer kb = enabledBufferKb.get(controlGuid);
        WindowsProvider p = new WindowsProvider(etw, layout, controlGuid, new ArrayList<>(eventClassGuids), listener,
                kb == null ? 0 : kb);
        // Until jetw enables it into a session of known clock: QPC, the default clock (ClientContext 0/1).
        p.callerTimeStamps(callerTimeStamps(0));
        Long own = enabledSession.get(controlGuid);
        if (own != null) {
            p.bindSession(own); // enabled before it registered: ETW calls back during RegisterTraceGuids
        }
        p.register();
        providers.put(controlGuid, p);
        lastRegisteredControlGuid = controlGuid;
        return p;
    }

    /**
     * Binds the provider to {@code sessionName} (its own session: enables and disables from other
     * sessions are ignored from now on) and enables it there. With EnableTraceEx2 the call waits for
     * the callback (Timeout 5 s), so a provider that is not enabled by its own session afterwards is
     * an error that names what the callback saw, rather than a JVM that traces into nothing.
     */
    @Override
    public void enableProvider(String sessionName, UUID controlGuid, int level, int enableFlags) throws EtwException {
        Session s = session(sessionName);
        // Before the call: the callback may arrive during it and writes may follow at once.
        enabledBufferKb.put(controlGuid, s.bufferSizeKb);
        enabledSession.put(controlGuid, s.id);
        WindowsProvider p = providers.get(controlGuid);
        if (p != null) {
            p.sessionBufferKb(s.bufferSizeKb);
            p.callerTimeStamps(callerTimeStamps(s.clientContext));
            p.bindSession(s.id);
        }
        enable(s, controlGuid, true, level, enableFlags);
        if (p != null && version.hasEnableTraceEx2() && !p.enabledByOwnSession()) {
            throw new EtwException("EnableTraceEx2", Win32Error.INVALID_HANDLE, "ETW accepted the enable of provider {"
                    + controlGuid + "} in session '" + s.name + "' (logger id 0x" + Integer.toHexString(p.ownLoggerId())
                    + "), but the provider's control callback got no usable enable from that session"
                    + (p.foreignEnables() == 0 ? "" : "; it ignored " + p.foreignEnables()
                    + " enable(s) from other sessions, the last from logger id 0x"
                    + Integer.toHexString(p.lastForeignLoggerId()))
                    + ". Please report this with the output of jetw selftest");
        }
    }

    @Override
    public void disableProvider(String sessionName, UUID controlGuid) throws EtwException {
        enable(session(sessionName), controlGuid, false, 0, 0);
    }

    private void enable(Session s, UUID controlGuid, boolean on, int level, int flags) throws EtwException {
        Memory guid = new Memory(EtwLayout.GUID_SIZE);
        guid.write(0, Guids.toBytes(controlGuid), 0, EtwLayout.GUID_SIZE);
        String function;
        int code;
        if (version.hasEnableTraceEx2()) {
            function = "EnableTraceEx2";
            // Classic providers: MatchAnyKeyword is the EnableFlag, truncated to 32 bits; all of them when 0.
            long matchAny = flags == 0 ? 0xFFFFFFFFL : flags & 0xFFFFFFFFL;
            code = on
                    ? etw.EnableTraceEx2(s.id, guid, EtwConstants.EVENT_CONTROL_CODE_ENABLE_PROVIDER, (byte) level,
                    matchAny, 0L, ENABLE_TIMEOUT_MS, null)
                    : etw.EnableTraceEx2(s.id, guid, EtwConstants.EVENT_CONTROL_CODE_DISABLE_PROVIDER, (byte) 0,
                    0L, 0L, ENABLE_TIMEOUT_MS, null);
        } else {
            function = "EnableTrace";
            code = etw.EnableTrace(on ? 1 : 0, flags, level, guid, s.id);
        }
        if (code != Win32Error.SUCCESS) {
            throw new EtwException(function, code, (on ? "enabling" : "disabling") + " provider {" + controlGuid
                    + "} in session '" + s.name + "'");
        }
    }

    /**
     * How caller-set times become TimeStamps of a session whose Wnode.ClientContext is
     * {@code clientContext}: one QueryPerformanceCounter reading taken next to a nanoTime reading
     * anchors the conversion (docs/windows-backend.md, "Caller-set time stamps").
     */
    CallerTimeStamps callerTimeStamps(int clientContext) {
        ClockType clock = clientContext == ClockType.SYSTEM.clientContext() ? ClockType.SYSTEM
                : clientContext == ClockType.CYCLE.clientContext() ? ClockType.CYCLE : ClockType.QPC;
        Memory counter = new Memory(8);
        Memory frequency = new Memory(8);
        counter.clear();
        frequency.clear();
        if (clock == ClockType.SYSTEM) {
            long[] anchor = preciseSystemTime();
            return CallerTimeStamps.of(clock, anchor[0], 0, 0, anchor[1]);
        }
        long nanoNow = System.nanoTime();
        boolean ok = etw.QueryPerformanceCounter(counter) != 0;
        long nanoAfter = System.nanoTime();
        ok &= etw.QueryPerformanceFrequency(frequency) != 0;
        if (clock == ClockType.QPC && !ok) {
            return CallerTimeStamps.NONE;
        }
        return CallerTimeStamps.of(clock, nanoNow + (nanoAfter - nanoNow) / 2, counter.getLong(0),
                frequency.getLong(0), 0);
    }

    /**
     * {nanoTime, FILETIME} of one moment, for {@code clock=system}: GetSystemTimePreciseAsFileTime
     * (Windows 8+, "the highest possible level of precision (<1us)") between two nanoTime readings.
     * Where it is missing (Windows 7) {@link java.time.Instant#now()}: 100 ns units on Java 9+, whatever
     * the system clock's update interval; currentTimeMillis's millisecond steps were the old anchor.
     */
    long[] preciseSystemTime() {
        Memory fileTime = new Memory(8);
        fileTime.clear();
        long nanoBefore = System.nanoTime();
        long ft;
        try {
            etw.GetSystemTimePreciseAsFileTime(fileTime);
            ft = fileTime.getLong(0);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            java.time.Instant now = java.time.Instant.now();
            ft = now.getEpochSecond() * 10_000_000L + now.getNano() / 100 + dev.jetw.etl.EtlFormat.FILETIME_UNIX_EPOCH;
        }
        long nanoAfter = System.nanoTime();
        return new long[] {nanoBefore + (nanoAfter - nanoBefore) / 2, ft};
    }

    /** The session jetw started, or one running elsewhere found by a QUERY (its id is Wnode.HistoricalContext). */
    private Session session(String name) throws EtwException {
        Session s = sessions.get(key(name));
        if (s != null) {
            return s;
        }
        PropertiesBuffer q = controlProperties(ZERO_GUID, 0);
        int code = etw.ControlTraceW(0, PropertiesBuffer.wideString(name), q.pointer(), EtwConstants.EVENT_TRACE_CONTROL_QUERY);
        if (code != Win32Error.SUCCESS) {
            throw new EtwException("ControlTraceW", code, "query of session '" + name + "' to enable a provider in it");
        }
        Session found = new Session(name, q.historicalContext(), ZERO_GUID, q.getInt(EtwLayout.ETP_LOG_FILE_MODE),
                q.getInt(EtwLayout.ETP_BUFFER_SIZE), false);
        found.clientContext = q.getInt(EtwLayout.WNODE_CLIENT_CONTEXT);
        return found;
    }
}
