package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.OrphanPolicy;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The portable backend: ETW's session control and classic providers implemented in-process, with
 * EVENT_TRACE_PROPERTIES semantics, writing genuine .etl files (docs/portable-backend.md).
 * Sessions are process-wide: they live in a static registry, so every instance of this backend in
 * a JVM sees the same sessions, as every process sees the same ETW sessions on Windows.
 */
public final class PortableBackend implements EtwBackend {

    /** ETW's default limit of loggers (EtwMaxLoggers); logger ids 1..63. */
    private static final int MAX_LOGGERS = 63;

    private static final Object LOCK = new Object();
    /** Running sessions by upper-cased name: ETW session names are case-insensitive. */
    private static final Map<String, PortableSession> SESSIONS = new LinkedHashMap<>();
    private static final List<PortableProvider> PROVIDERS = new CopyOnWriteArrayList<>();
    /**
     * Enablements by control GUID and by the backend instance that made them, kept for providers that
     * register later (as ETW does). A provider takes only the enables of the backend instance that
     * registered it, as the Windows provider takes only its own session's (docs/windows-backend.md,
     * "Whose enable counts"): another instance enabling the GUID (another process on Windows) neither
     * takes the provider's events nor stops them.
     */
    private static final Map<UUID, Map<PortableBackend, Enablement>> ENABLED = new HashMap<>();

    private static final class Enablement {
        final PortableSession session;
        final int level;
        final int flags;

        Enablement(PortableSession session, int level, int flags) {
            this.session = session;
            this.level = level;
            this.flags = flags;
        }
    }

    public PortableBackend() {
    }

    @Override
    public String name() {
        return "portable";
    }

    @Override
    public SessionStats startSession(SessionConfig config) throws EtwException {
        synchronized (LOCK) {
            // Check first: an invalid configuration must not stop the running session of that name.
            List<dev.jetw.etl.SessionNotice> notices = SessionRules.check(config);
            String key = key(config.sessionName());
            PortableSession running = SESSIONS.get(key);
            if (running != null) {
                OrphanPolicy policy = config.orphanPolicy();
                if (policy == OrphanPolicy.REUSE) {
                    return running.stats();
                }
                if (policy == OrphanPolicy.FAIL) {
                    throw new EtwException("StartTraceW", Win32Error.ALREADY_EXISTS,
                            "session " + config.sessionName() + " is already running in this process",
                            "Portable sessions live in their JVM: stop that session there (jetw detach PID), pick another"
                                    + " session name, or set orphan=restart|reuse");
                }
                stopLocked(running);
            }
            PortableSession s = new PortableSession(config, freeLoggerId(), Collections.unmodifiableList(notices));
            SESSIONS.put(key, s);
            return s.stats();
        }
    }

    @Override
    public SessionStats querySession(String sessionName) throws EtwException {
        return find(sessionName, "ControlTraceW(QUERY)").stats();
    }

    @Override
    public SessionStats flushSession(String sessionName) throws EtwException {
        return find(sessionName, "ControlTraceW(FLUSH)").flush();
    }

    @Override
    public SessionStats updateSession(SessionConfig config) throws EtwException {
        PortableSession s = find(config.sessionName(), "ControlTraceW(UPDATE)");
        SessionConfig old = s.config;
        if (config.logFile() != null && !config.logFile().equals(old.logFile())) {
            throw new EtwException("ControlTraceW(UPDATE)", Win32Error.NOT_SUPPORTED, "session " + s.name
                    + ": switching the log file to " + config.logFile() + " is not supported by the portable backend;"
                    + " stop the session and start it with the new file");
        }
        if (config.maximumBuffers() < old.minimumBuffers()) {
            throw new EtwException("ControlTraceW(UPDATE)", Win32Error.INVALID_PARAMETER, "session " + s.name
                    + ": maxBuffers " + config.maximumBuffers() + " is below minBuffers " + old.minimumBuffers());
        }
        s.update(config);
        return s.stats();
    }

    @Override
    public SessionStats dumpSession(String sessionName, java.nio.file.Path target) throws EtwException {
        return find(sessionName, "ControlTraceW(DUMP)").dump(target);
    }

    @Override
    public SessionStats stopSession(String sessionName) throws EtwException {
        synchronized (LOCK) {
            PortableSession s = SESSIONS.get(key(sessionName));
            return s == null ? null : stopLocked(s);
        }
    }

    private SessionStats stopLocked(PortableSession s) throws EtwException {
        // Providers first, so that no write races the final flush (ETW disables them too).
        for (PortableProvider p : PROVIDERS) {
            if (p.session == s) {
                p.session = null;
                p.listener.onDisable();
            }
        }
        for (Map<PortableBackend, Enablement> byOwner : ENABLED.values()) {
            byOwner.values().removeIf(e -> e.session == s);
        }
        SESSIONS.remove(key(s.name));
        return s.stop();
    }

    @Override
    public List<String> listSessions() {
        synchronized (LOCK) {
            List<String> names = new ArrayList<>();
            for (PortableSession s : SESSIONS.values()) {
                names.add(s.name);
            }
            return names;
        }
    }

    @Override
    public ProviderBackend registerProvider(UUID controlGuid, List<UUID> eventClassGuids, EnableListener listener)
            throws EtwException {
        if (controlGuid == null || listener == null || eventClassGuids == null || eventClassGuids.isEmpty()) {
            throw new EtwException("RegisterTraceGuidsW", Win32Error.INVALID_PARAMETER,
                    "a provider needs a control GUID, at least one event-class GUID and a listener");
        }
        synchronized (LOCK) {
            PortableProvider p = new PortableProvider(this, controlGuid, eventClassGuids, listener);
            PROVIDERS.add(p);
            Enablement e = ENABLED.getOrDefault(controlGuid, Collections.emptyMap()).get(this);
            if (e != null) {
                enable(p, e);
            }
            return p;
        }
    }

    @Override
    public void enableProvider(String sessionName, UUID controlGuid, int level, int enableFlags) throws EtwException {
        synchronized (LOCK) {
            PortableSession s = find(sessionName, "EnableTrace");
            Enablement e = new Enablement(s, level, enableFlags);
            // A classic provider logs to one session at a time: its own backend's latest enable.
            // No computeIfAbsent lambda: this runs in premain, where a lambda costs ~1-5 ms (BENCHMARKS.md §15).
            Map<PortableBackend, Enablement> byBackend = ENABLED.get(controlGuid);
            if (byBackend == null) {
                byBackend = new HashMap<>();
                ENABLED.put(controlGuid, byBackend);
            }
            byBackend.put(this, e);
            for (PortableProvider p : PROVIDERS) {
                if (p.controlGuid.equals(controlGuid) && p.owner() == this) {
                    enable(p, e);
                }
            }
        }
    }

    private static void enable(PortableProvider p, Enablement e) {
        p.session = e.session;
        // The "logger handle" a classic provider gets: the logger id, as GetTraceLoggerHandle returns it.
        p.listener.onEnable(e.level, e.flags, e.session.loggerId);
    }

    @Override
    public void disableProvider(String sessionName, UUID controlGuid) throws EtwException {
        synchronized (LOCK) {
            PortableSession s = find(sessionName, "EnableTrace");
            Map<PortableBackend, Enablement> byOwner = ENABLED.getOrDefault(controlGuid, Collections.emptyMap());
            byOwner.values().removeIf(e -> e.session == s);
            for (PortableProvider p : PROVIDERS) {
                if (p.controlGuid.equals(controlGuid) && p.session == s) {
                    p.session = null;
                    p.listener.onDisable();
                }
            }
        }
    }

    void unregister(PortableProvider p) {
        synchronized (LOCK) {
            if (PROVIDERS.remove(p)) {
                p.session = null;
            }
        }
    }

    /**
     * Attaches an in-process real-time consumer (the portable OpenTrace/ProcessTrace). The consumer
     * runs on the session's logger thread and receives each sealed buffer (BufferSize bytes, .etl
     * layout, little-endian, read-only) valid only during the call: copy what you keep. Buffers that
     * waited for a consumer are delivered first. Close the handle to detach.
     */
    public AutoCloseable openRealTimeConsumer(String sessionName, Consumer<ByteBuffer> consumer) throws EtwException {
        PortableSession s = find(sessionName, "OpenTraceW");
        if (!s.isRealTime()) {
            throw new EtwException("OpenTraceW", Win32Error.WMI_INSTANCE_NOT_FOUND,
                    "session " + s.name + " is not a real-time session (start it with mode real-time)");
        }
        s.addConsumer(consumer);
        return () -> s.removeConsumer(consumer);
    }

    /** What the backend accepted but does differently from Windows for this session (also printed once at start). */
    public List<String> notices(String sessionName) throws EtwException {
        List<String> out = new ArrayList<>();
        PortableSession s = find(sessionName, "ControlTraceW(QUERY)");
        synchronized (s.notices) {
            for (dev.jetw.etl.SessionNotice n : s.notices) {
                out.add(n.text());
            }
        }
        return out;
    }

    /** The largest payload an instance event may carry in a session of {@code bufferSizeKb}. */
    public static int maxPayloadBytes(int bufferSizeKb) {
        return EtlFormat.maxPayload(bufferSizeKb * 1024, EtlFormat.INSTANCE_HEADER_SIZE);
    }

    /** Test hook: the session (package-private). */
    static PortableSession session(String name) {
        synchronized (LOCK) {
            return SESSIONS.get(key(name));
        }
    }

    private static PortableSession find(String name, String function) throws EtwException {
        synchronized (LOCK) {
            PortableSession s = name == null ? null : SESSIONS.get(key(name));
            if (s == null) {
                throw new EtwException(function, Win32Error.WMI_INSTANCE_NOT_FOUND, "no session named " + name + " is running");
            }
            return s;
        }
    }

    private static int freeLoggerId() throws EtwException {
        boolean[] used = new boolean[MAX_LOGGERS + 1];
        for (PortableSession s : SESSIONS.values()) {
            used[s.loggerId] = true;
        }
        for (int id = 1; id <= MAX_LOGGERS; id++) {
            if (!used[id]) {
                return id;
            }
        }
        throw new EtwException("StartTraceW", Win32Error.NO_SYSTEM_RESOURCES,
                "this process already runs " + MAX_LOGGERS + " portable sessions",
                "Stop one of this JVM's sessions first (the portable backend keeps ETW's limit of loggers per process)");
    }

    private static String key(String sessionName) {
        return sessionName.toUpperCase(Locale.ROOT);
    }
}
