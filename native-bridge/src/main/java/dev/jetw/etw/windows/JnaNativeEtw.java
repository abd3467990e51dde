package dev.jetw.etw.windows;

import com.sun.jna.Callback;
import com.sun.jna.CallbackThreadInitializer;
import com.sun.jna.Function;
import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.win32.StdCallLibrary;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds {@link NativeEtw} to a native library: control calls interface-mapped through JNA
 * ({@link Advapi32Library}), per-event calls (TraceEventInstance, TraceEvent, CreateTraceInstanceId)
 * through the cheapest crossing the JVM offers ({@link EventCrossings}): FFM downcall handles on
 * Java 22+ (64-bit), JNA direct mapping ({@link Advapi32Direct}) otherwise and as the fallback. On
 * Windows JNA uses the stdcall convention, which is what WMIAPI means on 32-bit Windows and is inert
 * on x64 (see {@link #callingConvention}); FFM is used on 64-bit only, where there is one convention.
 *
 * <p>This is the only class that loads JNA's native part or advapi32: nothing happens until
 * {@link #loadAdvapi32()} or {@link #load(String)} is called.
 *
 * <p>It also keeps every registered {@link NativeEtw.ControlCallback} strongly reachable from a
 * successful RegisterTraceGuidsW until its UnregisterTraceGuids succeeds: JNA holds callbacks
 * weakly, and ETW calling a collected callback's trampoline would crash the JVM.
 */
public final class JnaNativeEtw implements NativeEtw {

    /**
     * ETW calls the control callback on a thread of its own: attach it as a daemon (never keeps the
     * JVM alive) and detach it afterwards (enable/disable is rare; a lingering attached pool thread is not).
     */
    private static final CallbackThreadInitializer CALLBACK_THREADS =
            new CallbackThreadInitializer(true, true, "jetw-etw-control-callback");

    /** {@link #load(String, String)}: choose the per-event crossing for the running JVM. */
    static final String AUTO = "auto";

    private final Advapi32Library control;
    private final EventCrossing perEvent;
    private final Kernel32Handles handles;
    private final PerformanceCounterLibrary counter;
    private final Map<Long, Callback> liveCallbacks = new ConcurrentHashMap<Long, Callback>();

    private JnaNativeEtw(Advapi32Library control, EventCrossing perEvent, Kernel32Handles handles,
                         PerformanceCounterLibrary counter) {
        this.control = control;
        this.perEvent = perEvent;
        this.handles = handles;
        this.counter = counter;
    }

    /** advapi32.dll, the library that exports every ETW function on every Windows version. */
    public static NativeEtw loadAdvapi32() {
        return load("Advapi32", "kernel32", AUTO);
    }

    /**
     * Any library exporting the advapi32 ETW names (tests bind a gcc-built stub this way). The
     * per-event calls can be bound to one library per class loader; a second, different library
     * fails with IllegalStateException. Fails with UnsatisfiedLinkError when the library or JNA's
     * native part cannot be loaded.
     */
    public static NativeEtw load(String libraryNameOrPath) {
        return load(libraryNameOrPath, AUTO);
    }

    /** As {@link #load(String)} with the per-event crossing forced: {@link EventCrossing#FFM}, {@link EventCrossing#JNA_DIRECT} or {@link #AUTO}. */
    static NativeEtw load(String libraryNameOrPath, String crossing) {
        return load(libraryNameOrPath, libraryNameOrPath, crossing);
    }

    /** The ETW exports from one library, CloseHandle and the performance counter from another (kernel32 on Windows). */
    private static synchronized NativeEtw load(String libraryNameOrPath, String handlesLibrary, String crossing) {
        Map<String, Object> options = new HashMap<String, Object>();
        // Explicit for both mappings (the direct mapping has no StdCallLibrary marker to derive it from).
        // No OPTION_FUNCTION_MAPPER: the DLL exports undecorated names.
        options.put(Library.OPTION_CALLING_CONVENTION, callingConvention(Platform.isWindows()));
        options = Collections.unmodifiableMap(options);
        NativeLibrary library = NativeLibrary.getInstance(libraryNameOrPath, options);
        EventCrossing perEvent = bindPerEvent(library, crossing);
        Advapi32Library control = Native.load(libraryNameOrPath, Advapi32Library.class, options);
        Kernel32Handles handles = Native.load(handlesLibrary, Kernel32Handles.class, options);
        PerformanceCounterLibrary counter = Native.load(handlesLibrary, PerformanceCounterLibrary.class, options);
        return new JnaNativeEtw(control, perEvent, handles, counter);
    }

    private static EventCrossing bindPerEvent(NativeLibrary library, String crossing) {
        if (EventCrossing.JNA_DIRECT.equals(crossing)) {
            return JnaDirectCrossing.bind(library);
        }
        if (EventCrossing.FFM.equals(crossing)) {
            try {
                return FfmCrossing.bind(library);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot bind the per-event calls through FFM: " + e, e);
            }
        }
        return EventCrossings.choose(library, System.err::println);
    }

    /** How the per-event calls cross into native code: {@code "ffm"} or {@code "jna-direct"}. */
    public String perEventCrossing() {
        return perEvent.name();
    }

    /**
     * stdcall on Windows (WMIAPI; JNA applies it on 32-bit and ignores it on 64-bit). Elsewhere JNA
     * 5.19.1 rejects the stdcall convention outright ("Unrecognized calling convention: 63", for both
     * mappings), and there is a single C convention anyway, so the C convention binds the test stub.
     */
    static int callingConvention(boolean windows) {
        return windows ? StdCallLibrary.STDCALL_CONVENTION : Function.C_CONVENTION;
    }

    @Override
    public int QueryPerformanceCounter(Pointer counterOut) {
        return counter.QueryPerformanceCounter(counterOut);
    }

    @Override
    public int QueryPerformanceFrequency(Pointer frequencyOut) {
        return counter.QueryPerformanceFrequency(frequencyOut);
    }

    @Override
    public void GetSystemTimePreciseAsFileTime(Pointer fileTimeOut) {
        counter.GetSystemTimePreciseAsFileTime(fileTimeOut);
    }

    @Override
    public int StartTraceW(Pointer traceIdOut, Pointer instanceName, Pointer properties) {
        return control.StartTraceW(traceIdOut, instanceName, properties);
    }

    @Override
    public int ControlTraceW(long traceId, Pointer instanceName, Pointer properties, int controlCode) {
        return control.ControlTraceW(traceId, instanceName, properties, controlCode);
    }

    @Override
    public int QueryAllTracesW(Pointer propertyArray, int propertyArrayCount, Pointer loggerCountOut) {
        return control.QueryAllTracesW(propertyArray, propertyArrayCount, loggerCountOut);
    }

    @Override
    public int EnableTrace(int enable, int enableFlag, int enableLevel, Pointer controlGuid, long traceId) {
        return control.EnableTrace(enable, enableFlag, enableLevel, controlGuid, traceId);
    }

    @Override
    public int EnableTraceEx2(long traceId, Pointer providerId, int controlCode, byte level, long matchAnyKeyword,
                              long matchAllKeyword, int timeout, Pointer enableParameters) {
        return control.EnableTraceEx2(traceId, providerId, controlCode, level, matchAnyKeyword, matchAllKeyword,
                timeout, enableParameters);
    }

    @Override
    public int RegisterTraceGuidsW(ControlCallback requestAddress, Pointer requestContext, Pointer controlGuid,
                                   int guidCount, Pointer traceGuidReg, Pointer mofImagePath, Pointer mofResourceName,
                                   Pointer registrationHandleOut) {
        Callback callback = nativeCallback(requestAddress, Platform.isWindows());
        if (callback != null) {
            // Before the call: ETW may invoke the callback during registration (an already-enabled GUID).
            Native.setCallbackThreadInitializer(callback, CALLBACK_THREADS);
        }
        int rc = control.RegisterTraceGuidsW(callback, requestContext, controlGuid, guidCount, traceGuidReg,
                mofImagePath, mofResourceName, registrationHandleOut);
        if (rc == 0 && callback != null && registrationHandleOut != null) {
            liveCallbacks.put(registrationHandleOut.getLong(0), callback);
        }
        return rc;
    }

    /** The object JNA builds the trampoline for: the stdcall callback itself on Windows, a C-convention delegate elsewhere. */
    static Callback nativeCallback(ControlCallback callback, boolean windows) {
        if (callback == null || windows) {
            return callback;
        }
        return new CdeclControlCallback.Delegate(callback);
    }

    @Override
    public int UnregisterTraceGuids(long registrationHandle) {
        int rc = control.UnregisterTraceGuids(registrationHandle);
        if (rc == 0) {
            // Only now may the callback become unreachable: ETW will not call it again.
            liveCallbacks.remove(registrationHandle);
        }
        return rc;
    }

    @Override
    public long GetTraceLoggerHandle(Pointer buffer) {
        return control.GetTraceLoggerHandle(buffer);
    }

    @Override
    public byte GetTraceEnableLevel(long traceHandle) throws LastErrorException {
        return control.GetTraceEnableLevel(traceHandle);
    }

    @Override
    public int GetTraceEnableFlags(long traceHandle) throws LastErrorException {
        return control.GetTraceEnableFlags(traceHandle);
    }

    /** Per event (plain events): FFM or JNA direct, nothing allocated on the Java heap. */
    @Override
    public int TraceEvent(long traceHandle, Pointer eventTrace) {
        return perEvent.traceEvent(traceHandle, eventTrace);
    }

    /** Per event: FFM or JNA direct, nothing allocated on the Java heap. */
    @Override
    public int TraceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo) {
        return perEvent.traceEventInstance(traceHandle, eventTrace, instInfo, parentInstInfo);
    }

    /** Per event: FFM or JNA direct, nothing allocated on the Java heap. */
    @Override
    public int CreateTraceInstanceId(Pointer regHandle, Pointer instInfo) {
        return perEvent.createTraceInstanceId(regHandle, instInfo);
    }

    @Override
    public int OpenProcessToken(Pointer processHandle, int desiredAccess, Pointer tokenHandleOut) {
        return control.OpenProcessToken(processHandle, desiredAccess, tokenHandleOut);
    }

    @Override
    public int LookupPrivilegeValueW(Pointer systemName, Pointer name, Pointer luidOut) {
        return control.LookupPrivilegeValueW(systemName, name, luidOut);
    }

    @Override
    public int AdjustTokenPrivileges(Pointer tokenHandle, int disableAllPrivileges, Pointer newState, int bufferLength,
                                     Pointer previousState, Pointer returnLengthOut) {
        return control.AdjustTokenPrivileges(tokenHandle, disableAllPrivileges, newState, bufferLength, previousState,
                returnLengthOut);
    }

    @Override
    public int CloseHandle(Pointer handle) {
        return handles.CloseHandle(handle);
    }

    /** JNA stores GetLastError (errno off Windows) per thread right after every native call. */
    @Override
    public int GetLastError() {
        return Native.getLastError();
    }

    /** Number of callbacks this binding currently keeps reachable (registered, not yet unregistered). */
    int liveCallbackCount() {
        return liveCallbacks.size();
    }
}
