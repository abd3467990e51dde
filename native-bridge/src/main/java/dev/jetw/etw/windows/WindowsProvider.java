package dev.jetw.etw.windows;

import com.sun.jna.CallbackThreadInitializer;
import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.Guids;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.Win32Error;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A classic provider registered with RegisterTraceGuidsW: the control callback that copies the
 * enable state, and the per-event path (TraceEventInstance / TraceEvent / CreateTraceInstanceId).
 *
 * <p>Enable state: the callback stores the logger handle in a volatile field and hands level,
 * flags and handle to the {@link EnableListener}. A classic logger handle is a TRACE_ENABLE_CONTEXT:
 * the logger id in its low 16 bits, the level and enable flags above, so a session that changes its
 * level sends a different handle. The provider writes only to its own session, the one the backend
 * enables it into ({@link #bindSession}): an enable or a disable whose logger id is another
 * session's is ignored, whatever came first (a session left running by a killed JVM may still have
 * the control GUID enabled, and ETW calls the callback for it during registration). This is
 * Microsoft's classic-provider sample ("Writing MOF (Classic) Events": compare session handles and
 * ignore requests from other controllers), with the session's own handle instead of the first one
 * seen (docs/windows-backend.md, "Whose enable counts").
 *
 * <p>Per event nothing is allocated: RegHandles, their Pointers and the GUID words are computed at
 * registration; each thread's {@link WindowsScratch} holds the native headers and payload.
 */
final class WindowsProvider implements ProviderBackend {

    /** The largest record: its Size is a USHORT. */
    static final int MAX_RECORD_BYTES = 0xFFFF;
    /** sizeof(EVENT_INSTANCE_GUID_HEADER): the record header in the buffer and the "buffer size − 72" of the docs. */
    static final int RECORD_HEADER_BYTES = 0x48;
    /** Records start at 8-byte boundaries in a buffer, so a record occupies its size rounded up to 8. */
    static final int RECORD_ALIGNMENT = 8;
    static final int DEFAULT_SESSION_BUFFER_KB = 64;
    /** No own session yet: every enable is ignored. */
    static final int NO_SESSION = -1;

    private static final int HEADER_FLAGS = EtwConstants.WNODE_FLAG_TRACED_GUID | EtwConstants.WNODE_FLAG_USE_MOF_PTR;

    static {
        // The callback may run under the loader lock, where loading a class could deadlock. Load (and
        // initialise) here every class the callback touches beyond those already loaded by
        // construction (this class, Callback, the listener, the NativeEtw implementation, Pointer):
        // LastErrorException is the one it may catch; building one also runs its constructor path.
        new LastErrorException(0).getErrorCode();
        CallbackThreadInitializer.class.getName();
    }

    private final NativeEtw etw;
    private final EtwLayout layout;
    private final UUID controlGuid;
    private final EnableListener listener;
    private final int classCount;

    /** Strong reference for the registration's whole life: JNA would crash the VM calling a collected callback. */
    private final ControlCallback callback;
    /** The TRACE_GUID_REGISTRATION array, then the control GUID, then the class GUIDs it points at. */
    private final Memory registration;
    private final Pointer controlGuidPtr;

    private final long[] classRegHandles;
    private final Pointer[] classRegHandlePtrs;
    /** Each class GUID in Windows byte order as two little-endian longs, for EVENT_TRACE_HEADER.Guid. */
    private final long[] classGuidWords;

    private long registrationHandle;
    private final AtomicBoolean registered = new AtomicBoolean();

    /** The enabling session's TRACELOGGER_HANDLE; 0 while disabled. */
    private volatile long loggerHandle;
    /** The logger id of this provider's own session ({@link #bindSession}); {@link #NO_SESSION} until then. */
    private volatile int ownLoggerId = NO_SESSION;
    /** Enable requests ignored because they came from another session (for the diagnosis of a failed enable). */
    private volatile long foreignEnables;
    private volatile int lastForeignLoggerId = NO_SESSION;
    /** Buffer size (KB) of the session jetw enabled this provider into; 0 when unknown. */
    private volatile int sessionBufferKb;
    /** How caller-set times become TimeStamps of the enabling session's clock. */
    private volatile CallerTimeStamps callerTimeStamps = CallerTimeStamps.NONE;

    WindowsProvider(NativeEtw etw, EtwLayout layout, UUID controlGuid, List<UUID> classGuids,
                    EnableListener listener, int sessionBufferKb) {
        this.etw = etw;
        this.layout = layout;
        this.controlGuid = controlGuid;
        this.listener = listener;
        this.classCount = classGuids.size();
        this.sessionBufferKb = sessionBufferKb;
        this.callback = new ControlCallback(this);

        int regSize = layout.traceGuidRegistrationSize();
        int guidBlock = classCount * regSize;
        this.registration = new Memory(guidBlock + (long) (classCount + 1) * EtwLayout.GUID_SIZE);
        registration.clear();
        registration.write(guidBlock, Guids.toBytes(controlGuid), 0, EtwLayout.GUID_SIZE);
        this.controlGuidPtr = registration.share(guidBlock);
        this.classGuidWords = new long[2 * classCount];
        for (int i = 0; i < classCount; i++) {
            byte[] g = Guids.toBytes(classGuids.get(i));
            long guidOffset = guidBlock + (long) (i + 1) * EtwLayout.GUID_SIZE;
            registration.write(guidOffset, g, 0, g.length);
            putPointer(registration, (long) i * regSize + layout.traceGuidRegistrationGuid(),
                    Pointer.nativeValue(registration) + guidOffset);
            ByteBuffer b = ByteBuffer.wrap(g).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            classGuidWords[2 * i] = b.getLong(0);
            classGuidWords[2 * i + 1] = b.getLong(8);
        }
        this.classRegHandles = new long[classCount];
        this.classRegHandlePtrs = new Pointer[classCount];
    }

    /** RegisterTraceGuidsW; reads each class's RegHandle back. */
    void register() throws EtwException {
        // ETW calls back on a thread of its own: attach it as a daemon so it never keeps the JVM alive.
        // (JnaNativeEtw sets the same on the object it hands JNA, which off Windows is a C-convention
        // delegate; setting it here too keeps the rule true for any binding that passes this object.)
        // This only records the initializer in JNA's map: nothing is loaded when ETW calls back.
        Native.setCallbackThreadInitializer(callback,
                new CallbackThreadInitializer(true, true, "jetw-etw-control-callback"));
        // A request code ETW never sends: runs the callback once so its code is linked before ETW calls it.
        callback.callback(-1, null, null, null);

        Memory handleOut = new Memory(8);
        handleOut.clear();
        int code = etw.RegisterTraceGuidsW(callback, null, controlGuidPtr, classCount, registration,
                null, null, handleOut);
        if (code != Win32Error.SUCCESS) {
            throw new EtwException("RegisterTraceGuidsW", code, "control GUID {" + controlGuid + "} with "
                    + classCount + " event class(es)");
        }
        registrationHandle = handleOut.getLong(0);
        int regSize = layout.traceGuidRegistrationSize();
        for (int i = 0; i < classCount; i++) {
            long h = getPointer(registration, (long) i * regSize + layout.traceGuidRegistrationRegHandle());
            classRegHandles[i] = h;
            classRegHandlePtrs[i] = new Pointer(h);
        }
        registered.set(true);
    }

    UUID controlGuid() {
        return controlGuid;
    }

    long registrationHandle() {
        return registrationHandle;
    }

    long loggerHandle() {
        return loggerHandle;
    }

    void sessionBufferKb(int kb) {
        sessionBufferKb = kb;
    }

    void callerTimeStamps(CallerTimeStamps c) {
        callerTimeStamps = c;
    }

    // ---------------------------------------------------------------- control callback

    /**
     * Makes the session whose CONTROLTRACE_ID is {@code sessionHandle} this provider's own, before the
     * backend enables it there. The session handle names the logger in its low 16 bits, as the logger
     * handle of the callback does (TRACE_ENABLE_CONTEXT.LoggerId; WPP writes with a QUERY's
     * HistoricalContext as its logger handle). An enable held from another session is dropped.
     */
    synchronized void bindSession(long sessionHandle) {
        int id = loggerId(sessionHandle);
        ownLoggerId = id;
        long active = loggerHandle;
        if (active != 0 && loggerId(active) != id) {
            loggerHandle = 0;
            listener.onDisable();
        }
    }

    int ownLoggerId() {
        return ownLoggerId;
    }

    /** Whether the provider is enabled by its own session now. */
    boolean enabledByOwnSession() {
        long h = loggerHandle;
        return h != 0 && loggerId(h) == ownLoggerId;
    }

    long foreignEnables() {
        return foreignEnables;
    }

    int lastForeignLoggerId() {
        return lastForeignLoggerId;
    }

    /** WMI_ENABLE_EVENTS: copy handle, level and flags if the request is from the own session; nothing else happens on ETW's thread. */
    synchronized void onEnableRequest(Pointer wnode) {
        long h = etw.GetTraceLoggerHandle(wnode);
        if (isInvalidLoggerHandle(h)) {
            return;
        }
        if (loggerId(h) != ownLoggerId) {
            // Another session (or, before the backend named the own one, any session) enabling the
            // control GUID: a classic provider logs to one session, and this one logs to its own.
            foreignEnables++;
            lastForeignLoggerId = loggerId(h);
            return;
        }
        int level;
        int flags;
        try {
            level = etw.GetTraceEnableLevel(h) & 0xFF;
            flags = etw.GetTraceEnableFlags(h);
        } catch (LastErrorException e) {
            // The handle is not usable (documented: level/flags 0 with a last error): not enabled.
            loggerHandle = 0;
            listener.onDisable();
            return;
        }
        loggerHandle = h;
        listener.onEnable(level, flags, h);
    }

    /** TRACE_ENABLE_CONTEXT.LoggerId: the low 16 bits of a classic logger (or session) handle. */
    static int loggerId(long handle) {
        return (int) (handle & 0xFFFF);
    }

    /** WMI_DISABLE_EVENTS: only the own session disables (Microsoft's sample: "only if the request is coming from the session that enabled the provider"). */
    synchronized void onDisableRequest(Pointer wnode) {
        long h = etw.GetTraceLoggerHandle(wnode);
        if (isInvalidLoggerHandle(h) || loggerId(h) != ownLoggerId) {
            return;
        }
        loggerHandle = 0;
        listener.onDisable();
    }

    /**
     * GetTraceLoggerHandle fails with INVALID_HANDLE_VALUE, which is all ones truncated to the
     * pointer size (0x00000000FFFFFFFF in a 32-bit process); 0 is never a logger handle either.
     */
    private boolean isInvalidLoggerHandle(long h) {
        long truncated = layout.pointerSize() == 8 ? h : h & 0xFFFFFFFFL;
        long invalid = layout.pointerSize() == 8 ? -1L : 0xFFFFFFFFL;
        return h == 0 || truncated == invalid;
    }

    /** WMIDPREQUEST. Only records state, always returns ERROR_SUCCESS, never throws into native code. */
    static final class ControlCallback implements NativeEtw.ControlCallback {
        private final WindowsProvider provider;

        ControlCallback(WindowsProvider provider) {
            this.provider = provider;
        }

        @Override
        public int callback(int requestCode, Pointer requestContext, Pointer bufferSize, Pointer buffer) {
            try {
                if (requestCode == EtwConstants.WMI_ENABLE_EVENTS) {
                    provider.onEnableRequest(buffer);
                } else if (requestCode == EtwConstants.WMI_DISABLE_EVENTS) {
                    provider.onDisableRequest(buffer);
                }
            } catch (Throwable t) {
                // Nothing may propagate into ETW's thread; the state stays as it was.
            }
            return Win32Error.SUCCESS;
        }
    }

    // ---------------------------------------------------------------- per event

    @Override
    public EventScratch newScratch() {
        return WindowsScratch.allocate(layout);
    }

    @Override
    public int newInstanceId(EventScratch scratch, int classIndex) {
        try {
            WindowsScratch s = (WindowsScratch) scratch;
            if (classIndex < 0 || classIndex >= classCount) {
                return 0;
            }
            ByteBuffer h = s.headers;
            putPointer(h, s.instanceInfo, 0);
            h.putInt(s.instanceInfo + layout.instanceInfoInstanceId(), 0);
            int code = etw.CreateTraceInstanceId(classRegHandlePtrs[classIndex], s.instanceInfoPtr);
            return code == Win32Error.SUCCESS ? h.getInt(s.instanceInfo + layout.instanceInfoInstanceId()) : 0;
        } catch (Throwable t) {
            return 0;
        }
    }

    @Override
    public int write(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                     int parentClassIndex, int parentInstanceId) {
        return write(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId,
                scratch.payload().position(), 0L);
    }

    @Override
    public int writeAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                       int instanceId, int parentClassIndex, int parentInstanceId) {
        return write(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId,
                scratch.payload().position(), rawTimeStamp(nanoTime));
    }

    @Override
    public int writeSmallAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                            int instanceId, int parentClassIndex, int parentInstanceId, long payload, int length) {
        if (!ProviderBackend.isSmallPayloadLength(length)) {
            return Win32Error.INVALID_PARAMETER;
        }
        scratch.payload().putLong(0, payload);
        return write(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId, length,
                rawTimeStamp(nanoTime));
    }

    /** The TimeStamp ETW is to keep, or 0 (ETW stamps the event) when the session's clock cannot be derived. */
    private long rawTimeStamp(long nanoTime) {
        CallerTimeStamps c = callerTimeStamps;
        return c.canConvert() ? c.toRaw(nanoTime) : 0L;
    }

    /** The word goes into the native payload memory the MOF field points at; the ByteBuffer's position is left alone. */
    @Override
    public int writeSmall(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                          int parentClassIndex, int parentInstanceId, long payload, int length) {
        if (!ProviderBackend.isSmallPayloadLength(length)) {
            return Win32Error.INVALID_PARAMETER; // more than the word's 8 bytes would send stale memory to ETW
        }
        scratch.payload().putLong(0, payload); // the payload memory holds at least INITIAL_PAYLOAD bytes
        return write(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId, length, 0L);
    }

    /** @param timeStamp the caller-set TimeStamp (sent with WNODE_FLAG_USE_TIMESTAMP), or 0 for the time of the call */
    private int write(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                      int parentClassIndex, int parentInstanceId, int length, long timeStamp) {
        try {
            long logger = loggerHandle;
            if (logger == 0) {
                return Win32Error.INVALID_HANDLE;
            }
            if (classIndex < 0 || classIndex >= classCount || parentClassIndex < -1 || parentClassIndex >= classCount) {
                return Win32Error.INVALID_PARAMETER;
            }
            WindowsScratch s = (WindowsScratch) scratch;
            return instanceId != 0
                    ? writeInstance(logger, s, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId, length, timeStamp)
                    : writePlain(logger, s, type, level, version, classIndex, length, timeStamp);
        } catch (Throwable t) {
            return Win32Error.INVALID_PARAMETER;
        }
    }

    private int writeInstance(long logger, WindowsScratch s, int type, int level, int version, int classIndex,
                              int instanceId, int parentClassIndex, int parentInstanceId, int length, long timeStamp) {
        ByteBuffer h = s.headers;
        int o = WindowsScratch.INSTANCE_HEADER;
        putClass(h, o, EtwLayout.EVENT_INSTANCE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE, type, level, version, timeStamp);
        h.putLong(o + EtwLayout.EIH_REG_HANDLE, classRegHandles[classIndex]);
        h.putLong(o + EtwLayout.EIH_INSTANCE_ID, 0L); // InstanceId and ParentInstanceId: outputs
        h.putInt(o + EtwLayout.EH_KERNEL_TIME, 0);
        h.putInt(o + EtwLayout.EH_FLAGS, headerFlags(timeStamp));
        boolean hasParent = parentClassIndex >= 0;
        h.putLong(o + EtwLayout.EIH_PARENT_REG_HANDLE, hasParent ? classRegHandles[parentClassIndex] : 0L);
        putMof(h, WindowsScratch.INSTANCE_MOF, s.payloadAddress, length);

        putPointer(h, s.instanceInfo, classRegHandles[classIndex]);
        h.putInt(s.instanceInfo + layout.instanceInfoInstanceId(), instanceId);
        if (hasParent) {
            putPointer(h, s.parentInfo, classRegHandles[parentClassIndex]);
            h.putInt(s.parentInfo + layout.instanceInfoInstanceId(), parentInstanceId);
        }
        return etw.TraceEventInstance(logger, s.instanceHeaderPtr, s.instanceInfoPtr, hasParent ? s.parentInfoPtr : null);
    }

    private int writePlain(long logger, WindowsScratch s, int type, int level, int version, int classIndex, int length,
                           long timeStamp) {
        ByteBuffer h = s.headers;
        int o = s.traceHeader;
        putClass(h, o, EtwLayout.EVENT_TRACE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE, type, level, version, timeStamp);
        h.putLong(o + EtwLayout.ETH_GUID, classGuidWords[2 * classIndex]);
        h.putLong(o + EtwLayout.ETH_GUID + 8, classGuidWords[2 * classIndex + 1]);
        h.putInt(o + EtwLayout.EH_KERNEL_TIME, 0);
        h.putInt(o + EtwLayout.EH_FLAGS, headerFlags(timeStamp));
        putMof(h, s.traceMof, s.payloadAddress, length);
        return etw.TraceEvent(logger, s.traceHeaderPtr);
    }

    /**
     * WNODE_FLAG_USE_TIMESTAMP makes ETW keep the TimeStamp the caller set instead of stamping the
     * event when it arrives (EVENT_TRACE_HEADER and WNODE_HEADER documentation; docs/windows-backend.md).
     */
    private static int headerFlags(long timeStamp) {
        return timeStamp != 0 ? HEADER_FLAGS | EtwConstants.WNODE_FLAG_USE_TIMESTAMP : HEADER_FLAGS;
    }

    /** Size, reserved FieldTypeFlags, Class{Type, Level, Version}, ThreadId 0, and the TimeStamp (0: ETW's). */
    private static void putClass(ByteBuffer h, int o, int size, int type, int level, int version, long timeStamp) {
        h.putShort(o + EtwLayout.EH_SIZE, (short) size);
        h.putShort(o + EtwLayout.EH_FIELD_TYPE_FLAGS, (short) 0);
        h.put(o + EtwLayout.EH_CLASS_TYPE, (byte) type);
        h.put(o + EtwLayout.EH_CLASS_LEVEL, (byte) level);
        h.putShort(o + EtwLayout.EH_CLASS_VERSION, (short) version);
        h.putLong(o + EtwLayout.EH_THREAD_ID, 0L);
        h.putLong(o + EtwLayout.EH_TIMESTAMP, timeStamp);
    }

    private static void putMof(ByteBuffer h, int o, long dataAddress, int length) {
        h.putLong(o + EtwLayout.MOF_DATA_PTR, dataAddress);
        h.putInt(o + EtwLayout.MOF_LENGTH, length);
        h.putInt(o + EtwLayout.MOF_DATA_TYPE, 0);
    }

    private void putPointer(ByteBuffer b, int offset, long value) {
        if (layout.pointerSize() == 8) {
            b.putLong(offset, value);
        } else {
            b.putInt(offset, (int) value);
        }
    }

    private void putPointer(Pointer p, long offset, long value) {
        if (layout.pointerSize() == 8) {
            p.setLong(offset, value);
        } else {
            p.setInt(offset, (int) value);
        }
    }

    private long getPointer(Pointer p, long offset) {
        return layout.pointerSize() == 8 ? p.getLong(offset) : p.getInt(offset) & 0xFFFFFFFFL;
    }

    /**
     * Payload limit. EVENT_INSTANCE_HEADER: the record (EVENT_INSTANCE_GUID_HEADER, 72 bytes, plus
     * payload) must be strictly smaller than the session buffer size − 72; records are 8-byte
     * aligned, so the largest is buffer − 80 (buffer sizes are whole KB), and its USHORT Size caps it
     * at {@link #MAX_RECORD_BYTES} ("slightly less than 64K", TraceEvent docs). Unknown buffer size
     * (a session jetw did not start, e.g. WPR's): the 64 KB default.
     */
    @Override
    public int maxPayloadBytes() {
        int kb = sessionBufferKb;
        long bufferBytes = (kb > 0 ? kb : DEFAULT_SESSION_BUFFER_KB) * 1024L;
        long largestRecord = Math.min(MAX_RECORD_BYTES, bufferBytes - RECORD_HEADER_BYTES - RECORD_ALIGNMENT);
        long limit = largestRecord - RECORD_HEADER_BYTES;
        return (int) Math.max(0, Math.min(limit, EventScratch.MAX_PAYLOAD));
    }

    /** UnregisterTraceGuids, once; the callback object stays referenced by this provider. */
    @Override
    public void unregister() throws EtwException {
        if (!registered.compareAndSet(true, false)) {
            return;
        }
        loggerHandle = 0;
        int code = etw.UnregisterTraceGuids(registrationHandle);
        if (code != Win32Error.SUCCESS) {
            throw new EtwException("UnregisterTraceGuids", code, "control GUID {" + controlGuid + "}");
        }
    }
}
