package dev.jetw.etw.windows;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jetw.etl.Guids;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * A recorder standing in for advapi32: it records every call with copies of the bytes passed in,
 * checks those bytes against the documented rules (etw-api.md §2, §4, §5; the SDK pages), and
 * answers with scripted return codes. Rule breaches are collected in {@link #violations}, not
 * thrown, because the backend's per-event path and callback swallow exceptions by design.
 *
 * <p>Reads every structure with the layout chosen by the test (x64 or x86), so the same Java code
 * is checked for both. On this 64-bit test JVM, x86 pointer-sized fields hold only the low half of
 * an address; pointers into an array are rebuilt from the array's own address.
 */
final class RecordingNativeEtw implements NativeEtw {

    static final int WNODE_FLAG_TRACED_GUID = 0x00020000;
    static final int WNODE_FLAG_USE_MOF_PTR = 0x00100000;
    static final int WNODE_FLAG_USE_TIMESTAMP = 0x00000200;
    static final int MODE_NEEDS_MAX_SIZE = 0x2 | 0x8 | 0x20; // CIRCULAR | NEWFILE | PREALLOCATE
    static final int MODE_PRIVATE = 0x800;
    static final int MODE_REAL_TIME = 0x100;
    static final int MODE_BUFFERING = 0x400;
    static final int MODE_SYSTEM_LOGGER = 0x02000000;
    static final UUID SYSTEM_TRACE = UUID.fromString("9e814aad-3204-11d2-9a82-006008a86939");

    /** One native call with copies of what was passed. Unused fields stay 0 / null. */
    static final class Call {
        final String function;
        String name;
        byte[] properties;
        int controlCode;
        long traceId;
        int enable;
        int flags;
        int level;
        long matchAny;
        long matchAll;
        int timeout;
        UUID guid;
        int guidCount;
        List<UUID> classGuids;
        long logger;
        byte[] header;
        byte[] info;
        byte[] parentInfo;
        byte[] payload;
        long mofPointer;
        long regHandle;
        int result;

        Call(String function) {
            this.function = function;
        }

        ByteBuffer props() {
            return ByteBuffer.wrap(properties).order(ByteOrder.LITTLE_ENDIAN);
        }

        ByteBuffer headerBytes() {
            return ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        }

        @Override
        public String toString() {
            return function + (name != null ? "(" + name + ")" : "") + (function.startsWith("Control") ? " code=" + controlCode : "");
        }
    }

    /** What a QUERY/STOP/FLUSH/UPDATE of a session reports back. */
    static final class SessionAnswer {
        long historicalContext;
        int bufferSizeKb;
        int numberOfBuffers;
        int freeBuffers;
        int eventsLost;
        int buffersWritten;
        int logBuffersLost;
        int realTimeBuffersLost;
        long loggerThreadId;
        String logFile;
        int logFileMode;
        /** EnableFlags of a system logger or the NT Kernel Logger: the kernel providers it runs. */
        int enableFlags;
    }

    final EtwLayout layout;
    final List<Call> calls = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    private final Map<String, Deque<Integer>> codes = new HashMap<>();
    final Map<String, SessionAnswer> answers = new HashMap<>();
    final List<String> runningSessions = new ArrayList<>();
    final Map<Long, Integer> enableLevels = new HashMap<>();
    final Map<Long, Integer> enableFlags = new HashMap<>();
    /** GetTraceEnableLevel/Flags throw this (a documented failure) when set. */
    RuntimeException enableQueryFailure;

    long nextSessionId = 0x5000;
    int nextInstanceId = 1;
    long registrationHandle = 0x0000_7FF0_0000_0100L;
    long classRegHandleBase;
    final List<Long> classRegHandles = new ArrayList<>();
    final List<UUID> registeredClassGuids = new ArrayList<>();
    ControlCallback callback;
    /** Each registered provider's callback by control GUID: EnableTrace/EnableTraceEx2 call it as ETW does. */
    final Map<UUID, ControlCallback> callbacks = new HashMap<>();
    /** Live registrations: RegistrationHandle to control GUID. */
    private final Map<Long, UUID> registrations = new HashMap<>();
    /** False: per-event calls answer without recording or copying (for allocation measurements). */
    boolean recordEvents = true;
    /**
     * Which sessions have which control GUID enabled, in the order they enabled it. ETW keeps an
     * enable after the controller or the provider is gone ("the provider remains enabled"), and a
     * provider that registers then is called back at once, once per enabling session.
     */
    final Map<UUID, Map<Long, int[]>> enablements = new java.util.LinkedHashMap<>();
    /** Added to the logger id of every logger handle a callback receives: 0 models ETW; non-zero, a logger id that is not the session handle's. */
    int loggerIdSkew;


    /**
     * The TRACELOGGER_HANDLE a provider's callback gets for session {@code traceId}: a
     * TRACE_ENABLE_CONTEXT, the logger id (the session handle's low 16 bits) with level and flags above it.
     */
    long loggerHandleOf(long traceId, int level, int flags) {
        return ((traceId + loggerIdSkew) & 0xFFFF) | (long) (level & 0xFF) << 16 | (flags & 0xFFFFFFFFL) << 32;
    }

    /**
     * A classic provider registered over this recorder and enabled the way jetw does it: session
     * "jetw" started, provider registered, enabled there at level 5 (the callback then holds
     * {@code loggerHandleOf(first session, 5, 0xFFFFFFFF)}).
     */
    dev.jetw.etw.ClassicProvider enabledProvider(UUID control, List<UUID> classes) throws dev.jetw.etw.EtwException {
        WindowsBackend backend = new WindowsBackend(this, layout, WindowsVersion.parse("10.0"));
        backend.startSession(dev.jetw.etw.SessionConfig.builder().sessionName("jetw")
                .logFile(java.nio.file.Paths.get("C:\\t\\jetw.etl")).build());
        dev.jetw.etw.ClassicProvider p = dev.jetw.etw.ClassicProvider.register(backend, control, classes);
        backend.enableProvider("jetw", control, 5, 0);
        return p;
    }

    /** TRACE_ENABLE_CONTEXT.LoggerId of a logger handle. */
    static long loggerIdOf(long loggerHandle) {
        return loggerHandle & 0xFFFF;
    }

    /** A session that is not this process's (a killed JVM's, WPR's) enabling {@code guid}: ETW calls the provider back if it is registered. */
    void foreignEnable(UUID guid, long traceId, int level, int flags) {
        etwEnable(guid, traceId, true, level, flags);
    }

    void foreignDisable(UUID guid, long traceId) {
        etwEnable(guid, traceId, false, 0, 0);
    }

    /** ETW's side of an enable or disable: remember it, and call the registered provider back. */
    private void etwEnable(UUID guid, long traceId, boolean on, int level, int flags) {
        Map<Long, int[]> bySession = enablements.computeIfAbsent(guid, g -> new java.util.LinkedHashMap<>());
        bySession.remove(traceId);
        if (on) {
            bySession.put(traceId, new int[] {level, flags}); // {level, flags}, in the order sessions enabled it
        }
        ControlCallback cb = callbacks.get(guid);
        if (cb != null) {
            long handle = loggerHandleOf(traceId, level, flags);
            if (on) {
                enableLevels.put(handle, level);
                enableFlags.put(handle, flags);
            }
            call(cb, on ? EtwConstants.WMI_ENABLE_EVENTS : EtwConstants.WMI_DISABLE_EVENTS, handle);
        }
    }

    /** The token the recorder hands out, the LUID it answers for SeSystemProfilePrivilege, and the tokens still open. */
    static final long TOKEN = 0x0000_0000_0000_0ABCL;
    static final long PROFILE_LUID = 0x0000_0000_0000_000BL;
    final List<Long> openTokens = new ArrayList<>();
    /** True once AdjustTokenPrivileges enabled SeSystemProfilePrivilege (returned TRUE, last error 0). */
    boolean profilePrivilegeEnabled;
    /** What GetLastError answers: set by every token call as Windows would. */
    int lastError;

    RecordingNativeEtw(EtwLayout layout) {
        this.layout = layout;
        // x86 handles are 32-bit values; x64 ones use the upper half too, to catch truncation.
        this.classRegHandleBase = layout.pointerSize() == 8 ? 0x0000_7FF6_1234_0000L : 0x1234_0000L;
    }

    /** The next calls of {@code function} return these codes, in order; afterwards 0. */
    RecordingNativeEtw script(String function, int... results) {
        Deque<Integer> q = codes.computeIfAbsent(function, k -> new ArrayDeque<>());
        for (int r : results) {
            q.add(r);
        }
        return this;
    }

    SessionAnswer answer(String session) {
        return answers.computeIfAbsent(session.toLowerCase(Locale.ROOT), k -> new SessionAnswer());
    }

    private int next(Call c) {
        Deque<Integer> q = codes.get(c.function);
        c.result = q == null || q.isEmpty() ? 0 : q.poll();
        calls.add(c);
        return c.result;
    }

    List<Call> calls(String function) {
        List<Call> out = new ArrayList<>();
        for (Call c : calls) {
            if (c.function.equals(function)) {
                out.add(c);
            }
        }
        return out;
    }

    Call last(String function) {
        List<Call> l = calls(function);
        if (l.isEmpty()) {
            throw new AssertionError("no call of " + function + " in " + calls);
        }
        return l.get(l.size() - 1);
    }

    private void violation(String text) {
        violations.add(text);
    }

    // ---------------------------------------------------------------- simulate ETW's control callback

    /** ETW enabling the provider from the session whose logger handle is {@code loggerHandle}. */
    int enable(long loggerHandle, int level, int flags) {
        enableLevels.put(loggerHandle, level);
        enableFlags.put(loggerHandle, flags);
        return request(EtwConstants.WMI_ENABLE_EVENTS, loggerHandle);
    }

    int disable(long loggerHandle) {
        return request(EtwConstants.WMI_DISABLE_EVENTS, loggerHandle);
    }

    /** Calls the registered callback with a WNODE_HEADER whose HistoricalContext is the logger handle. */
    int request(int requestCode, long loggerHandle) {
        if (callback == null) {
            throw new AssertionError("no callback registered");
        }
        return call(callback, requestCode, loggerHandle);
    }

    private static int call(ControlCallback callback, int requestCode, long loggerHandle) {
        Memory wnode = new Memory(EtwLayout.WNODE_HEADER_SIZE);
        wnode.clear();
        wnode.setInt(EtwLayout.WNODE_BUFFER_SIZE, EtwLayout.WNODE_HEADER_SIZE);
        wnode.setLong(EtwLayout.WNODE_HISTORICAL_CONTEXT, loggerHandle);
        wnode.setInt(EtwLayout.WNODE_FLAGS, WNODE_FLAG_TRACED_GUID);
        Memory size = new Memory(4);
        size.setInt(0, EtwLayout.WNODE_HEADER_SIZE);
        return callback.callback(requestCode, null, size, wnode);
    }

    // ---------------------------------------------------------------- helpers

    static String wide(Pointer p) {
        if (p == null) {
            return null;
        }
        int n = 0;
        while (p.getShort(n) != 0) {
            n += 2;
        }
        return new String(p.getByteArray(0, n), StandardCharsets.UTF_16LE);
    }

    /** A NUL-terminated UTF-16LE string at {@code offset} inside {@code b}, or null when not terminated in it. */
    static String wideAt(ByteBuffer b, int offset) {
        for (int i = offset; i + 1 < b.limit(); i += 2) {
            if (b.get(i) == 0 && b.get(i + 1) == 0) {
                byte[] s = new byte[i - offset];
                for (int k = 0; k < s.length; k++) {
                    s[k] = b.get(offset + k);
                }
                return new String(s, StandardCharsets.UTF_16LE);
            }
        }
        return null;
    }

    private long pointerAt(Pointer base, long offset) {
        long stored = layout.pointerSize() == 8 ? base.getLong(offset) : base.getInt(offset) & 0xFFFFFFFFL;
        if (layout.pointerSize() == 8) {
            return stored;
        }
        return (Pointer.nativeValue(base) & ~0xFFFFFFFFL) | stored;
    }

    private long handleAt(ByteBuffer b, int offset) {
        return layout.pointerSize() == 8 ? b.getLong(offset) : b.getInt(offset) & 0xFFFFFFFFL;
    }

    private void putHandle(Pointer p, long offset, long value) {
        if (layout.pointerSize() == 8) {
            p.setLong(offset, value);
        } else {
            p.setInt(offset, (int) value);
        }
    }

    /** Copies the properties and checks the rules every StartTrace/ControlTrace buffer must meet. */
    private byte[] checkProperties(String function, Pointer props, String instanceName) {
        if (props == null) {
            violation(function + ": Properties is NULL");
            return new byte[0];
        }
        int bufferSize = props.getInt(EtwLayout.WNODE_BUFFER_SIZE);
        if (!(props instanceof Memory)) {
            violation(function + ": Properties is not allocated memory of a known size");
            return props.getByteArray(0, Math.max(EtwLayout.ETP_SIZE, bufferSize));
        }
        long allocation = ((Memory) props).size();
        if (bufferSize != allocation) {
            violation(function + ": Wnode.BufferSize " + bufferSize + " != allocation " + allocation);
        }
        byte[] copy = props.getByteArray(0, (int) Math.min(allocation, Math.max(bufferSize, EtwLayout.ETP_SIZE)));
        ByteBuffer b = ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN);
        if ((b.getInt(EtwLayout.WNODE_FLAGS) & WNODE_FLAG_TRACED_GUID) == 0) {
            violation(function + ": Wnode.Flags lacks WNODE_FLAG_TRACED_GUID");
        }
        int loggerNameOffset = b.getInt(layout.etpLoggerNameOffset());
        int logFileNameOffset = b.getInt(layout.etpLogFileNameOffset());
        if (loggerNameOffset != EtwLayout.ETP_SIZE) {
            violation(function + ": LoggerNameOffset " + loggerNameOffset + " != sizeof(EVENT_TRACE_PROPERTIES) 120");
            return copy;
        }
        String sessionName = wideAt(b, loggerNameOffset);
        if (sessionName == null) {
            violation(function + ": session name at LoggerNameOffset is not NUL-terminated within BufferSize");
            return copy;
        }
        int nameBytes = Math.max(2 * (instanceName == null ? 0 : instanceName.length()), 2 * sessionName.length()) + 2;
        if (logFileNameOffset != 0) {
            if (logFileNameOffset < loggerNameOffset + nameBytes) {
                violation(function + ": LogFileNameOffset " + logFileNameOffset + " overlaps the session name");
            } else {
                String file = wideAt(b, logFileNameOffset);
                if (file == null) {
                    violation(function + ": log-file name is not NUL-terminated within BufferSize");
                } else if (bufferSize < EtwLayout.ETP_SIZE + nameBytes + 2 * file.length() + 2) {
                    violation(function + ": BufferSize too small for both names");
                }
            }
        }
        if (!sessionName.isEmpty() && instanceName != null && !sessionName.equals(instanceName)) {
            violation(function + ": session name in properties '" + sessionName + "' != InstanceName '" + instanceName + "'");
        }
        return copy;
    }

    // ---------------------------------------------------------------- NativeEtw

    @Override
    public int StartTraceW(Pointer traceIdOut, Pointer instanceName, Pointer properties) {
        Call c = new Call("StartTraceW");
        c.name = wide(instanceName);
        if (c.name == null || c.name.isEmpty()) {
            violation("StartTraceW: InstanceName empty");
        }
        if (!(traceIdOut instanceof Memory) || ((Memory) traceIdOut).size() < 8) {
            violation("StartTraceW: TraceId is not 8 bytes of memory");
        }
        c.properties = checkProperties("StartTraceW", properties, c.name);
        if (c.properties.length >= EtwLayout.ETP_SIZE) {
            ByteBuffer b = c.props();
            int clock = b.getInt(EtwLayout.WNODE_CLIENT_CONTEXT);
            if (clock < 1 || clock > 3) {
                violation("StartTraceW: ClientContext " + clock + " is not 1 (QPC), 2 (system) or 3 (cycle)");
            }
            int modes = b.getInt(EtwLayout.ETP_LOG_FILE_MODE);
            if ((modes & MODE_NEEDS_MAX_SIZE) != 0 && b.getInt(EtwLayout.ETP_MAXIMUM_FILE_SIZE) == 0) {
                violation("StartTraceW: circular/newfile/preallocate without MaximumFileSize");
            }
            boolean named = b.getInt(layout.etpLogFileNameOffset()) != 0;
            if (!named && (modes & (MODE_REAL_TIME | MODE_BUFFERING)) == 0) {
                violation("StartTraceW: no log file and neither real-time nor buffering (ERROR_BAD_PATHNAME)");
            }
            if (named && (modes & MODE_BUFFERING) != 0) {
                // What ETW does with a file named at the start of an in-memory session is not documented;
                // PerfView never names one (TraceEventSession.GetProperties).
                violation("StartTraceW: a buffering session started with a log-file name");
            }
            int kb = b.getInt(EtwLayout.ETP_BUFFER_SIZE);
            if (kb < 4 || kb > 16384) {
                violation("StartTraceW: BufferSize " + kb + " KB outside 4..16384");
            }
            if (b.getInt(EtwLayout.ETP_MAXIMUM_BUFFERS) < b.getInt(EtwLayout.ETP_MINIMUM_BUFFERS)) {
                violation("StartTraceW: MaximumBuffers < MinimumBuffers");
            }
            UUID guid = Guids.get(b, EtwLayout.WNODE_GUID);
            if (SYSTEM_TRACE.equals(guid) && !EtwConstants.KERNEL_LOGGER_NAME.equals(c.name)) {
                violation("StartTraceW: SystemTraceControlGuid with a name other than KERNEL_LOGGER_NAME");
            }
            if (EtwConstants.KERNEL_LOGGER_NAME.equals(c.name) && !SYSTEM_TRACE.equals(guid)) {
                violation("StartTraceW: NT Kernel Logger without SystemTraceControlGuid");
            }
            if ((modes & MODE_SYSTEM_LOGGER) != 0) {
                if (guid.equals(new UUID(0, 0)) || SYSTEM_TRACE.equals(guid)) {
                    violation("StartTraceW: system logger needs a new GUID of its own, not " + guid);
                }
                if (b.getInt(EtwLayout.ETP_ENABLE_FLAGS) == 0) {
                    violation("StartTraceW: a system logger must set EnableFlags");
                }
            }
            if (b.getInt(EtwLayout.ETP_ENABLE_FLAGS) != 0 && (modes & MODE_SYSTEM_LOGGER) == 0
                    && !EtwConstants.KERNEL_LOGGER_NAME.equals(c.name)) {
                violation("StartTraceW: EnableFlags outside a system logger or the NT Kernel Logger");
            }
            if ((b.getInt(EtwLayout.ETP_ENABLE_FLAGS) & 0x01000000) != 0 && !profilePrivilegeEnabled) {
                violation("StartTraceW: EVENT_TRACE_FLAG_PROFILE without SeSystemProfilePrivilege enabled in the token");
            }
            if (b.getInt(EtwLayout.ETP_AGE_LIMIT) != 0) {
                violation("StartTraceW: AgeLimit set");
            }
        }
        int r = next(c);
        if (r == 0 && traceIdOut != null) {
            traceIdOut.setLong(0, nextSessionId++);
            runningSessions.add(c.name);
        }
        return r;
    }

    @Override
    public int ControlTraceW(long traceId, Pointer instanceName, Pointer properties, int controlCode) {
        Call c = new Call("ControlTraceW");
        c.name = wide(instanceName);
        c.traceId = traceId;
        c.controlCode = controlCode;
        if (c.name == null && traceId == 0) {
            violation("ControlTraceW: neither a name nor a handle");
        }
        c.properties = checkProperties("ControlTraceW", properties, null);
        if (controlCode != EtwConstants.EVENT_TRACE_CONTROL_UPDATE && c.properties.length >= EtwLayout.ETP_SIZE) {
            // STOP/QUERY/FLUSH: a fresh zeroed buffer with BufferSize, Guid, Flags, offsets (+ LogFileMode if private).
            ByteBuffer b = c.props();
            int modes = b.getInt(EtwLayout.ETP_LOG_FILE_MODE);
            for (int off = EtwLayout.ETP_BUFFER_SIZE; off < EtwLayout.ETP_LOGGER_THREAD_ID + layout.pointerSize(); off += 4) {
                boolean allowed = off == EtwLayout.ETP_LOG_FILE_MODE && (modes & MODE_PRIVATE) != 0;
                if (b.getInt(off) != 0 && !allowed) {
                    violation("ControlTraceW code " + controlCode + ": offset " + off + " not zero in a fresh buffer");
                }
            }
            if (b.getLong(EtwLayout.WNODE_HISTORICAL_CONTEXT) != 0 || b.getLong(EtwLayout.WNODE_TIMESTAMP) != 0) {
                violation("ControlTraceW: Wnode outputs not zero in a fresh buffer");
            }
        }
        SessionAnswer running = c.name == null ? null : answers.get(c.name.toLowerCase(Locale.ROOT));
        if (controlCode == EtwConstants.EVENT_TRACE_CONTROL_UPDATE && running != null && running.enableFlags != 0
                && c.properties.length >= EtwLayout.ETP_SIZE
                && c.props().getInt(EtwLayout.ETP_ENABLE_FLAGS) != running.enableFlags) {
            violation("ControlTraceW UPDATE: EnableFlags 0x" + Integer.toHexString(c.props().getInt(EtwLayout.ETP_ENABLE_FLAGS))
                    + " drops kernel providers the session runs (0x" + Integer.toHexString(running.enableFlags) + ")");
        }
        int r = next(c);
        if (r == 0 && properties != null) {
            SessionAnswer a = running;
            if (a != null) {
                properties.setLong(EtwLayout.WNODE_HISTORICAL_CONTEXT, a.historicalContext);
                properties.setInt(EtwLayout.ETP_BUFFER_SIZE, a.bufferSizeKb);
                properties.setInt(EtwLayout.ETP_LOG_FILE_MODE, a.logFileMode);
                properties.setInt(EtwLayout.ETP_ENABLE_FLAGS, a.enableFlags);
                properties.setInt(EtwLayout.ETP_NUMBER_OF_BUFFERS, a.numberOfBuffers);
                properties.setInt(EtwLayout.ETP_FREE_BUFFERS, a.freeBuffers);
                properties.setInt(EtwLayout.ETP_EVENTS_LOST, a.eventsLost);
                properties.setInt(EtwLayout.ETP_BUFFERS_WRITTEN, a.buffersWritten);
                properties.setInt(EtwLayout.ETP_LOG_BUFFERS_LOST, a.logBuffersLost);
                properties.setInt(EtwLayout.ETP_REAL_TIME_BUFFERS_LOST, a.realTimeBuffersLost);
                putHandle(properties, EtwLayout.ETP_LOGGER_THREAD_ID, a.loggerThreadId);
                int fileOffset = properties.getInt(layout.etpLogFileNameOffset());
                if (a.logFile != null && fileOffset != 0) {
                    byte[] f = PropertiesBuffer.utf16z(a.logFile);
                    properties.write(fileOffset, f, 0, f.length);
                }
            }
        }
        return r;
    }

    @Override
    public int QueryAllTracesW(Pointer propertyArray, int propertyArrayCount, Pointer loggerCountOut) {
        Call c = new Call("QueryAllTracesW");
        c.guidCount = propertyArrayCount;
        int r = next(c);
        int n = Math.min(runningSessions.size(), propertyArrayCount);
        for (int i = 0; i < propertyArrayCount; i++) {
            Pointer p = new Pointer(pointerAt(propertyArray, (long) i * layout.pointerSize()));
            int bufferSize = p.getInt(EtwLayout.WNODE_BUFFER_SIZE);
            int nameOffset = p.getInt(layout.etpLoggerNameOffset());
            int fileOffset = p.getInt(layout.etpLogFileNameOffset());
            if (bufferSize < EtwLayout.ETP_SIZE + 4 || nameOffset != EtwLayout.ETP_SIZE || fileOffset <= nameOffset
                    || fileOffset >= bufferSize) {
                violation("QueryAllTracesW: element " + i + " not initialised (BufferSize " + bufferSize
                        + ", offsets " + nameOffset + "/" + fileOffset + ")");
                break;
            }
            if (r == 0 && i < n) {
                byte[] name = PropertiesBuffer.utf16z(runningSessions.get(i));
                p.write(nameOffset, name, 0, name.length);
            }
        }
        if (runningSessions.size() > propertyArrayCount && r == 0) {
            c.result = r = 234;
        }
        loggerCountOut.setInt(0, r == 0 ? n : runningSessions.size());
        return r;
    }

    @Override
    public int EnableTrace(int enable, int enableFlag, int enableLevel, Pointer controlGuid, long traceId) {
        Call c = new Call("EnableTrace");
        c.enable = enable;
        c.flags = enableFlag;
        c.level = enableLevel;
        c.guid = guid(controlGuid);
        c.traceId = traceId;
        if (traceId == 0) {
            violation("EnableTrace: TraceId 0");
        }
        int r = next(c);
        if (r == 0 && c.guid != null) {
            etwEnable(c.guid, traceId, enable != 0, enableLevel, enableFlag);
        }
        return r;
    }

    @Override
    public int EnableTraceEx2(long traceId, Pointer providerId, int controlCode, byte level, long matchAnyKeyword,
                              long matchAllKeyword, int timeout, Pointer enableParameters) {
        Call c = new Call("EnableTraceEx2");
        c.traceId = traceId;
        c.guid = guid(providerId);
        c.controlCode = controlCode;
        c.level = level & 0xFF;
        c.matchAny = matchAnyKeyword;
        c.matchAll = matchAllKeyword;
        c.timeout = timeout;
        if (traceId == 0) {
            violation("EnableTraceEx2: TraceId 0");
        }
        if (enableParameters != null) {
            violation("EnableTraceEx2: EnableParameters given for a classic provider");
        }
        int r = next(c);
        if (r == 0 && c.guid != null && (controlCode == 0 || controlCode == 1)) {
            // Classic provider: "MatchAnyKeyword ... truncated from a ULONGLONG to a ULONG".
            etwEnable(c.guid, traceId, controlCode == 1, c.level, (int) matchAnyKeyword);
        }
        return r;
    }

    private UUID guid(Pointer p) {
        if (p == null) {
            violation("GUID pointer is NULL");
            return null;
        }
        return Guids.get(ByteBuffer.wrap(p.getByteArray(0, 16)), 0);
    }

    @Override
    public int RegisterTraceGuidsW(ControlCallback requestAddress, Pointer requestContext, Pointer controlGuid,
                                   int guidCount, Pointer traceGuidReg, Pointer mofImagePath, Pointer mofResourceName,
                                   Pointer registrationHandleOut) {
        Call c = new Call("RegisterTraceGuidsW");
        c.guid = guid(controlGuid);
        c.guidCount = guidCount;
        c.classGuids = new ArrayList<>();
        if (requestAddress == null) {
            violation("RegisterTraceGuidsW: no callback");
        }
        if (mofImagePath != null || mofResourceName != null) {
            violation("RegisterTraceGuidsW: MofImagePath/MofResourceName are unsupported and must be NULL");
        }
        if (traceGuidReg == null || guidCount < 1) {
            violation("RegisterTraceGuidsW: TraceEventInstance needs TraceGuidReg (got " + guidCount + ")");
        }
        int r = next(c);
        callback = requestAddress;
        if (r == 0 && c.guid != null) {
            callbacks.put(c.guid, requestAddress);
        }
        for (int i = 0; traceGuidReg != null && i < guidCount; i++) {
            long regOffset = (long) i * layout.traceGuidRegistrationSize();
            long guidAddress = pointerAt(traceGuidReg, regOffset + layout.traceGuidRegistrationGuid());
            UUID g = Guids.get(ByteBuffer.wrap(new Pointer(guidAddress).getByteArray(0, 16)), 0);
            c.classGuids.add(g);
            if (r == 0) {
                long h = classRegHandleBase + classRegHandles.size() + 1;
                putHandle(traceGuidReg, regOffset + layout.traceGuidRegistrationRegHandle(), h);
                classRegHandles.add(h);
                registeredClassGuids.add(g);
            }
        }
        if (r == 0) {
            long handle = registrationHandle + registrations.size();
            registrations.put(handle, c.guid);
            registrationHandleOut.setLong(0, handle);
            // "If the GUID is already enabled, registration enables it at once" (RegisterTraceGuids docs),
            // for every session that enabled it, whether its controller still runs or not.
            Map<Long, int[]> bySession = enablements.getOrDefault(c.guid, new HashMap<>());
            for (Map.Entry<Long, int[]> e : new ArrayList<>(bySession.entrySet())) {
                long logger = loggerHandleOf(e.getKey(), e.getValue()[0], e.getValue()[1]);
                enableLevels.put(logger, e.getValue()[0]);
                enableFlags.put(logger, e.getValue()[1]);
                call(requestAddress, EtwConstants.WMI_ENABLE_EVENTS, logger);
            }
        }
        return r;
    }

    @Override
    public int UnregisterTraceGuids(long handle) {
        Call c = new Call("UnregisterTraceGuids");
        c.regHandle = handle;
        UUID guid = registrations.remove(handle);
        if (guid == null) {
            violation("UnregisterTraceGuids: handle " + Long.toHexString(handle) + " was not returned by RegisterTraceGuidsW");
        } else {
            callbacks.remove(guid); // ETW calls an unregistered provider no more
        }
        return next(c);
    }

    @Override
    public long GetTraceLoggerHandle(Pointer buffer) {
        Call c = new Call("GetTraceLoggerHandle");
        c.logger = buffer.getLong(EtwLayout.WNODE_HISTORICAL_CONTEXT);
        calls.add(c);
        return c.logger;
    }

    @Override
    public byte GetTraceEnableLevel(long traceHandle) throws LastErrorException {
        Call c = new Call("GetTraceEnableLevel");
        c.logger = traceHandle;
        calls.add(c);
        if (enableQueryFailure != null) {
            throw enableQueryFailure;
        }
        return (byte) (int) enableLevels.getOrDefault(traceHandle, 0);
    }

    @Override
    public int GetTraceEnableFlags(long traceHandle) throws LastErrorException {
        Call c = new Call("GetTraceEnableFlags");
        c.logger = traceHandle;
        calls.add(c);
        if (enableQueryFailure != null) {
            throw enableQueryFailure;
        }
        return enableFlags.getOrDefault(traceHandle, 0);
    }

    @Override
    public int TraceEvent(long traceHandle, Pointer eventTrace) {
        if (!recordEvents) {
            return 0;
        }
        Call c = new Call("TraceEvent");
        c.logger = traceHandle;
        c.header = eventTrace.getByteArray(0, EtwLayout.EVENT_TRACE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE);
        ByteBuffer h = c.headerBytes();
        checkEventHeader("TraceEvent", h, EtwLayout.EVENT_TRACE_HEADER_SIZE);
        UUID g = Guids.get(h, EtwLayout.ETH_GUID);
        if (!registeredClassGuids.contains(g)) {
            violation("TraceEvent: Guid " + g + " is not a registered event class");
        }
        c.payload = mofPayload(c, h, EtwLayout.EVENT_TRACE_HEADER_SIZE);
        return next(c);
    }

    @Override
    public int TraceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo) {
        if (!recordEvents) {
            return 0;
        }
        Call c = new Call("TraceEventInstance");
        c.logger = traceHandle;
        c.header = eventTrace.getByteArray(0, EtwLayout.EVENT_INSTANCE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE);
        ByteBuffer h = c.headerBytes();
        checkEventHeader("TraceEventInstance", h, EtwLayout.EVENT_INSTANCE_HEADER_SIZE);
        long reg = h.getLong(EtwLayout.EIH_REG_HANDLE);
        if (!classRegHandles.contains(reg)) {
            violation("TraceEventInstance: RegHandle " + Long.toHexString(reg) + " is not a registered class");
        }
        if (instInfo == null) {
            violation("TraceEventInstance: InstInfo is NULL");
        } else {
            c.info = instInfo.getByteArray(0, layout.instanceInfoSize());
            ByteBuffer i = ByteBuffer.wrap(c.info).order(ByteOrder.LITTLE_ENDIAN);
            if (handleAt(i, layout.instanceInfoRegHandle()) != reg) {
                violation("TraceEventInstance: InstInfo.RegHandle != header RegHandle");
            }
            if (i.getInt(layout.instanceInfoInstanceId()) == 0) {
                violation("TraceEventInstance: InstInfo.InstanceId is 0");
            }
        }
        long parentReg = h.getLong(EtwLayout.EIH_PARENT_REG_HANDLE);
        if (parentInstInfo != null) {
            c.parentInfo = parentInstInfo.getByteArray(0, layout.instanceInfoSize());
            ByteBuffer p = ByteBuffer.wrap(c.parentInfo).order(ByteOrder.LITTLE_ENDIAN);
            if (handleAt(p, layout.instanceInfoRegHandle()) != parentReg || !classRegHandles.contains(parentReg)) {
                violation("TraceEventInstance: ParentInstInfo.RegHandle != ParentRegHandle of a registered class");
            }
        } else if (parentReg != 0) {
            violation("TraceEventInstance: ParentRegHandle set without ParentInstInfo");
        }
        c.payload = mofPayload(c, h, EtwLayout.EVENT_INSTANCE_HEADER_SIZE);
        return next(c);
    }

    private void checkEventHeader(String function, ByteBuffer h, int headerSize) {
        int size = h.getShort(EtwLayout.EH_SIZE) & 0xFFFF;
        int flags = h.getInt(EtwLayout.EH_FLAGS);
        if ((flags & WNODE_FLAG_TRACED_GUID) == 0) {
            violation(function + ": Flags lacks WNODE_FLAG_TRACED_GUID (ERROR_INVALID_FLAGS)");
        }
        if ((flags & WNODE_FLAG_USE_MOF_PTR) != 0) {
            int fields = (size - headerSize) / EtwLayout.MOF_FIELD_SIZE;
            if (size != headerSize + fields * EtwLayout.MOF_FIELD_SIZE || fields < 1 || fields > EtwLayout.MAX_MOF_FIELDS) {
                violation(function + ": Size " + size + " is not header + n MOF_FIELDs");
            }
        }
        if (h.getShort(EtwLayout.EH_FIELD_TYPE_FLAGS) != 0) {
            violation(function + ": reserved FieldTypeFlags not 0");
        }
        if ((flags & WNODE_FLAG_USE_TIMESTAMP) != 0 && h.getLong(EtwLayout.EH_TIMESTAMP) <= 0) {
            violation(function + ": WNODE_FLAG_USE_TIMESTAMP with TimeStamp " + h.getLong(EtwLayout.EH_TIMESTAMP));
        }
    }

    /** The performance counter this recorder reports: a value and a frequency the test may change. */
    long qpcCounter = 987_654_321_000L;
    long qpcFrequency = 10_000_000L;

    @Override
    public int QueryPerformanceCounter(Pointer counterOut) {
        counterOut.setLong(0, qpcCounter);
        return 1;
    }

    /** The FILETIME GetSystemTimePreciseAsFileTime answers; 0: the export is missing (Windows 7), as JNA reports it. */
    long preciseFileTime = 133_000_000_000_000_000L + 1_234_567L;

    @Override
    public void GetSystemTimePreciseAsFileTime(Pointer fileTimeOut) {
        if (preciseFileTime == 0) {
            throw new UnsatisfiedLinkError("Error looking up function 'GetSystemTimePreciseAsFileTime'");
        }
        fileTimeOut.setLong(0, preciseFileTime);
    }

    @Override
    public int QueryPerformanceFrequency(Pointer frequencyOut) {
        frequencyOut.setLong(0, qpcFrequency);
        return qpcFrequency > 0 ? 1 : 0;
    }

    private byte[] mofPayload(Call c, ByteBuffer h, int mofOffset) {
        c.mofPointer = h.getLong(mofOffset + EtwLayout.MOF_DATA_PTR);
        int length = h.getInt(mofOffset + EtwLayout.MOF_LENGTH);
        if (length < 0 || length > 64 * 1024) {
            violation(c.function + ": MOF length " + length + " outside 0..64 KB");
            return new byte[0];
        }
        if (c.mofPointer == 0 && length > 0) {
            violation(c.function + ": MOF DataPtr NULL with length " + length);
            return new byte[0];
        }
        return length == 0 ? new byte[0] : new Pointer(c.mofPointer).getByteArray(0, length);
    }

    @Override
    public int CreateTraceInstanceId(Pointer regHandle, Pointer instInfo) {
        if (!recordEvents) {
            instInfo.setInt(layout.instanceInfoInstanceId(), nextInstanceId++);
            return 0;
        }
        Call c = new Call("CreateTraceInstanceId");
        c.regHandle = Pointer.nativeValue(regHandle);
        if (!classRegHandles.contains(c.regHandle)) {
            violation("CreateTraceInstanceId: RegHandle " + Long.toHexString(c.regHandle) + " is not a registered class");
        }
        int r = next(c);
        if (r == 0) {
            putHandle(instInfo, layout.instanceInfoRegHandle(), c.regHandle);
            instInfo.setInt(layout.instanceInfoInstanceId(), nextInstanceId++);
        }
        return r;
    }

    // ---------------------------------------------------------------- token privileges

    @Override
    public int OpenProcessToken(Pointer processHandle, int desiredAccess, Pointer tokenHandleOut) {
        Call c = new Call("OpenProcessToken");
        c.regHandle = Pointer.nativeValue(processHandle);
        c.flags = desiredAccess;
        long current = layout.pointerSize() == 8 ? -1L : 0xFFFFFFFFL;
        long passed = layout.pointerSize() == 8 ? c.regHandle : c.regHandle & 0xFFFFFFFFL;
        if (passed != current) {
            violation("OpenProcessToken: ProcessHandle " + Long.toHexString(c.regHandle) + " is not GetCurrentProcess()");
        }
        if ((desiredAccess & 0x20) == 0) {
            violation("OpenProcessToken: DesiredAccess lacks TOKEN_ADJUST_PRIVILEGES");
        }
        lastError = next(c);
        if (lastError != 0) {
            return 0;
        }
        putHandle(tokenHandleOut, 0, TOKEN);
        openTokens.add(TOKEN);
        return 1;
    }

    @Override
    public int LookupPrivilegeValueW(Pointer systemName, Pointer name, Pointer luidOut) {
        Call c = new Call("LookupPrivilegeValueW");
        c.name = wide(name);
        if (systemName != null) {
            violation("LookupPrivilegeValueW: lpSystemName should be NULL (the local system)");
        }
        lastError = next(c);
        if (lastError != 0) {
            return 0;
        }
        luidOut.setLong(0, "SeSystemProfilePrivilege".equals(c.name) ? PROFILE_LUID : 0x99);
        return 1;
    }

    @Override
    public int AdjustTokenPrivileges(Pointer tokenHandle, int disableAllPrivileges, Pointer newState, int bufferLength,
                                     Pointer previousState, Pointer returnLengthOut) {
        Call c = new Call("AdjustTokenPrivileges");
        c.regHandle = Pointer.nativeValue(tokenHandle);
        c.enable = disableAllPrivileges;
        c.info = newState == null ? null : newState.getByteArray(0, 16);
        if (!openTokens.contains(c.regHandle)) {
            violation("AdjustTokenPrivileges: TokenHandle " + Long.toHexString(c.regHandle) + " is not an open token");
        }
        if (disableAllPrivileges != 0) {
            violation("AdjustTokenPrivileges: DisableAllPrivileges is TRUE");
        }
        ByteBuffer tp = c.info == null ? null : ByteBuffer.wrap(c.info).order(ByteOrder.LITTLE_ENDIAN);
        boolean enablesProfile = tp != null && tp.getInt(0) == 1 && tp.getLong(4) == PROFILE_LUID && tp.getInt(12) == 2;
        if (!enablesProfile) {
            violation("AdjustTokenPrivileges: NewState is not one LUID_AND_ATTRIBUTES {profile LUID, SE_PRIVILEGE_ENABLED}");
        }
        if (bufferLength < 16 && previousState != null) {
            violation("AdjustTokenPrivileges: BufferLength " + bufferLength + " too small for PreviousState");
        }
        int code = next(c);
        // TRUE with ERROR_NOT_ALL_ASSIGNED (1300) when the token lacks the privilege: documented.
        lastError = code;
        boolean ok = code == 0 || code == 1300;
        profilePrivilegeEnabled = code == 0 && enablesProfile;
        return ok ? 1 : 0;
    }

    @Override
    public int CloseHandle(Pointer handle) {
        Call c = new Call("CloseHandle");
        c.regHandle = Pointer.nativeValue(handle);
        if (!openTokens.remove(c.regHandle)) {
            violation("CloseHandle: " + Long.toHexString(c.regHandle) + " is not an open handle");
        }
        next(c);
        return 1;
    }

    @Override
    public int GetLastError() {
        return lastError;
    }

    void assertNoViolations() {
        if (!openTokens.isEmpty()) {
            violations.add("token handle(s) left open: " + openTokens);
        }
        if (!violations.isEmpty()) {
            throw new AssertionError("documented rules broken: " + violations);
        }
    }

    static String hex(byte[] b) {
        return Arrays.toString(b);
    }
}
