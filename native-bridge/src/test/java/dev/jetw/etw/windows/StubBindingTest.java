package dev.jetw.etw.windows;

import static dev.jetw.etw.windows.StubLibrary.address;
import static dev.jetw.etw.windows.StubLibrary.blob;
import static dev.jetw.etw.windows.StubLibrary.guid;
import static dev.jetw.etw.windows.StubLibrary.utf16;
import static dev.jetw.etw.windows.StubLibrary.wide;
import static dev.jetw.etw.windows.StubLibrary.zeroed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.jetw.etw.EtwException;
import dev.jetw.etl.EventType;
import dev.jetw.etl.Guids;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etl.TraceLevel;
import dev.jetw.etw.Win32Error;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Exercises every {@link NativeEtw} method of the REAL mapping ({@link JnaNativeEtw}, per-event calls
 * over JNA direct mapping here, over FFM in {@link FfmStubBindingTest}) through
 * real native calls into the gcc-built stub (src/test/c/etw_stub.c), and checks on the native side
 * that argument count, types, by-value 64-bit handles, by-reference outputs and struct memory
 * arrived as the SDK prototypes say. The stub's handles all have bits above 32 set, so a handle
 * mapped to a 32-bit type would arrive truncated and fail the lookups.
 */
class StubBindingTest {

    private static final EtwLayout L = EtwLayout.X64;
    private static final UUID CONTROL = UUID.fromString("3a6a1b1c-1d2e-4f30-8a41-52c6d7e8f901");
    private static final UUID CLASS_A = UUID.fromString("0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f");
    private static final UUID CLASS_B = UUID.fromString("f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0ff");
    private static final int NAMES_BYTES = EtwConstants.MAX_NAME_CHARS * 2;
    private static final int PROPS_SIZE = EtwLayout.ETP_SIZE + 2 * NAMES_BYTES;

    private NativeEtw etw;
    private StubLibrary.Recorder rec;

    @BeforeEach
    void bind() throws IOException {
        assumeTrue(Native.POINTER_SIZE == 8, "the stub pins the x64 layouts; this host is not 64-bit");
        etw = StubLibrary.etw(crossing());
        rec = StubLibrary.recorder();
        rec.stub_reset();
    }

    /** The per-event crossing under test; {@link FfmStubBindingTest} runs every test here again over FFM. */
    String crossing() {
        return EventCrossing.JNA_DIRECT;
    }

    @Test
    void thePerEventCallsCrossAsRequested() {
        assertEquals(crossing(), ((JnaNativeEtw) etw).perEventCrossing());
    }

    // ---------------------------------------------------------------- performance counter

    @Test
    void performanceCounterAndFrequencyArriveByReference() {
        Memory counter = zeroed(8);
        Memory frequency = zeroed(8);
        assertEquals(1, etw.QueryPerformanceCounter(counter));
        long first = counter.getLong(0);
        assertEquals(1, etw.QueryPerformanceCounter(counter));
        assertEquals(first + 1000, counter.getLong(0), "the stub's counter advances 1000 ticks per reading");
        assertEquals(1, etw.QueryPerformanceFrequency(frequency));
        assertEquals(10_000_000L, frequency.getLong(0));
        assertEquals(2, rec.stub_calls("QueryPerformanceCounter"));
        assertEquals(1, rec.stub_calls("QueryPerformanceFrequency"));
    }

    @Test
    void thePreciseSystemTimeArrivesByReference() {
        Memory fileTime = zeroed(8);
        etw.GetSystemTimePreciseAsFileTime(fileTime);
        assertEquals(133_000_000_000_000_000L + 1_234_567L, fileTime.getLong(0), "the stub's FILETIME, all 64 bits");
        assertEquals(address(fileTime), rec.stub_arg("GetSystemTimePreciseAsFileTime", 0));
    }

    // ---------------------------------------------------------------- sessions

    /** EVENT_TRACE_PROPERTIES as the controller fills it, with the log-file name after the session name. */
    private static Memory properties(String logFile) {
        Memory p = zeroed(PROPS_SIZE);
        p.setInt(EtwLayout.WNODE_BUFFER_SIZE, PROPS_SIZE);
        p.setInt(EtwLayout.WNODE_CLIENT_CONTEXT, 1);
        p.setInt(EtwLayout.WNODE_FLAGS, EtwConstants.WNODE_FLAG_TRACED_GUID);
        p.setInt(EtwLayout.ETP_BUFFER_SIZE, 1024);
        p.setInt(EtwLayout.ETP_MINIMUM_BUFFERS, 4);
        p.setInt(EtwLayout.ETP_MAXIMUM_BUFFERS, 64);
        p.setInt(EtwLayout.ETP_MAXIMUM_FILE_SIZE, 100);
        p.setInt(EtwLayout.ETP_LOG_FILE_MODE, LogFileMode.SEQUENTIAL.bits());
        p.setInt(EtwLayout.ETP_FLUSH_TIMER, 1);
        p.setInt(L.etpLoggerNameOffset(), EtwLayout.ETP_SIZE);
        if (logFile != null) {
            p.setInt(L.etpLogFileNameOffset(), EtwLayout.ETP_SIZE + NAMES_BYTES);
            byte[] f = utf16(logFile);
            p.write(EtwLayout.ETP_SIZE + NAMES_BYTES, f, 0, f.length);
        }
        return p;
    }

    private long start(String name) {
        Memory id = zeroed(8);
        assertEquals(0, etw.StartTraceW(id, wide(name), properties("C:\\traces\\" + name + ".etl")), "StartTraceW");
        return id.getLong(0);
    }

    @Test
    void startTracePassesTheIdByReferenceAndThePropertiesBytesIntact() throws IOException {
        Memory id = zeroed(8);
        Memory name = wide("jetw-stub");
        Memory props = properties("C:\\traces\\jetw.etl");
        byte[] sent = props.getByteArray(0, PROPS_SIZE);

        assertEquals(0, etw.StartTraceW(id, name, props));

        assertEquals(3, rec.stub_argc("StartTraceW"));
        assertEquals(address(id), rec.stub_arg("StartTraceW", 0), "TraceId arrives as the address of our 8 bytes");
        assertEquals(address(name), rec.stub_arg("StartTraceW", 1));
        assertEquals(address(props), rec.stub_arg("StartTraceW", 2));
        assertArrayEquals(utf16("jetw-stub"), blob("StartTraceW", 0), "session name arrives as UTF-16LE");
        assertArrayEquals(sent, blob("StartTraceW", 1), "every properties byte arrives as written");
        assertArrayEquals(utf16("C:\\traces\\jetw.etl"), blob("StartTraceW", 2), "log file name at LogFileNameOffset");
        long traceId = id.getLong(0);
        assertEquals(0x1_0000_0000L, traceId & 0xFFFF_FFFF_0000_0000L, "the 64-bit id written through the pointer");
        assertEquals(traceId, props.getLong(EtwLayout.WNODE_HISTORICAL_CONTEXT));
        assertArrayEquals(utf16("jetw-stub\0"), props.getByteArray(EtwLayout.ETP_SIZE, utf16("jetw-stub\0").length),
                "StartTrace copies the session name to LoggerNameOffset");
    }

    @Test
    void startTraceAnswersAsDocumented() {
        long first = start("dup");
        assertNotEquals(0, first);
        Memory id = zeroed(8);
        assertEquals(Win32Error.ALREADY_EXISTS, etw.StartTraceW(id, wide("DUP"), properties(null)),
                "a second start of the same (case-insensitive) name");
        assertEquals(0, id.getLong(0), "on failure the id is 0");

        Memory badOffset = properties("x.etl");
        badOffset.setInt(L.etpLoggerNameOffset(), 100);   // inside the struct
        assertEquals(Win32Error.INVALID_PARAMETER, etw.StartTraceW(id, wide("other"), badOffset));

        Memory fileBeforeName = properties("x.etl");
        fileBeforeName.setInt(L.etpLogFileNameOffset(), EtwLayout.ETP_SIZE);
        fileBeforeName.setInt(L.etpLoggerNameOffset(), EtwLayout.ETP_SIZE + NAMES_BYTES);
        assertEquals(Win32Error.INVALID_PARAMETER, etw.StartTraceW(id, wide("other"), fileBeforeName));

        Memory small = properties(null);
        small.setInt(EtwLayout.WNODE_BUFFER_SIZE, EtwLayout.ETP_SIZE - 1);
        assertEquals(Win32Error.BAD_LENGTH, etw.StartTraceW(id, wide("other"), small));

        Memory noFile = properties(null);
        noFile.setInt(EtwLayout.ETP_LOG_FILE_MODE, 0);
        assertEquals(Win32Error.BAD_PATHNAME, etw.StartTraceW(id, wide("other"), noFile));

        Memory noTracedGuid = properties("x.etl");
        noTracedGuid.setInt(EtwLayout.WNODE_FLAGS, 0);
        assertEquals(Win32Error.INVALID_PARAMETER, etw.StartTraceW(id, wide("other"), noTracedGuid));
    }

    @Test
    void controlTraceQueriesAndStopsByNameAndById() throws IOException {
        long traceId = start("ctl");

        Memory byName = properties(null);
        assertEquals(0, etw.ControlTraceW(0, wide("ctl"), byName, EtwConstants.EVENT_TRACE_CONTROL_QUERY));
        assertEquals(4, rec.stub_argc("ControlTraceW"));
        assertEquals(0, rec.stub_arg("ControlTraceW", 0));
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_QUERY, rec.stub_arg("ControlTraceW", 3));
        assertEquals(traceId, byName.getLong(EtwLayout.WNODE_HISTORICAL_CONTEXT), "QUERY by name reports the id");
        assertEquals(11, byName.getInt(EtwLayout.ETP_NUMBER_OF_BUFFERS));
        assertEquals(7, byName.getInt(EtwLayout.ETP_FREE_BUFFERS));
        assertEquals(3, byName.getInt(EtwLayout.ETP_EVENTS_LOST));
        assertEquals(2, byName.getInt(EtwLayout.ETP_LOG_BUFFERS_LOST));
        assertEquals(1, byName.getInt(EtwLayout.ETP_REAL_TIME_BUFFERS_LOST));
        assertEquals(0x4242L, byName.getLong(EtwLayout.ETP_LOGGER_THREAD_ID));

        Memory byId = properties(null);
        assertEquals(0, etw.ControlTraceW(traceId, null, byId, EtwConstants.EVENT_TRACE_CONTROL_FLUSH),
                "the 64-bit id passed by value finds the session");
        assertEquals(traceId, rec.stub_arg("ControlTraceW", 0));
        assertEquals(0, rec.stub_arg("ControlTraceW", 1), "a null name arrives as NULL");
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_FLUSH, rec.stub_arg("ControlTraceW", 3));

        assertEquals(Win32Error.WMI_INSTANCE_NOT_FOUND,
                etw.ControlTraceW(traceId & 0xFFFF_FFFFL, null, properties(null), EtwConstants.EVENT_TRACE_CONTROL_QUERY),
                "the id cut to 32 bits is a different session");
        assertEquals(Win32Error.WMI_INSTANCE_NOT_FOUND,
                etw.ControlTraceW(0, wide("nobody"), properties(null), EtwConstants.EVENT_TRACE_CONTROL_STOP));

        Memory stop = properties(null);
        assertEquals(0, etw.ControlTraceW(0, wide("ctl"), stop, EtwConstants.EVENT_TRACE_CONTROL_STOP));
        assertEquals(11, stop.getInt(EtwLayout.ETP_NUMBER_OF_BUFFERS), "STOP fills the final statistics");
        assertArrayEquals(utf16("ctl"), blob("ControlTraceW", 0));
        assertEquals(Win32Error.WMI_INSTANCE_NOT_FOUND,
                etw.ControlTraceW(0, wide("ctl"), properties(null), EtwConstants.EVENT_TRACE_CONTROL_QUERY));
    }

    @Test
    void queryAllTracesFillsTheArrayAndTheCount() {
        start("one");
        start("two");
        Memory a = properties(null);
        Memory b = properties(null);
        Memory array = new Memory(2L * Native.POINTER_SIZE);
        array.setPointer(0, a);
        array.setPointer(Native.POINTER_SIZE, b);
        Memory count = zeroed(4);

        assertEquals(0, etw.QueryAllTracesW(array, 2, count));
        assertEquals(2, count.getInt(0));
        assertArrayEquals(utf16("one\0"), a.getByteArray(EtwLayout.ETP_SIZE, 8));
        assertArrayEquals(utf16("two\0"), b.getByteArray(EtwLayout.ETP_SIZE, 8));

        assertEquals(Win32Error.MORE_DATA, etw.QueryAllTracesW(array, 1, count), "array too small");
        assertEquals(2, count.getInt(0));
    }

    // ---------------------------------------------------------------- providers

    /** Records what ETW hands the callback and what the documented follow-up calls return. */
    static final class RecordingCallback implements NativeEtw.ControlCallback {
        final NativeEtw etw;
        final AtomicInteger calls = new AtomicInteger();
        volatile int requestCode = -1;
        volatile long context;
        volatile int bufferSize;
        volatile long logger;
        volatile int level = -1;
        volatile int flags = -1;
        volatile String threadName;
        volatile boolean daemon;

        RecordingCallback(NativeEtw etw) {
            this.etw = etw;
        }

        @Override
        public int callback(int code, Pointer requestContext, Pointer size, Pointer buffer) {
            requestCode = code;
            threadName = Thread.currentThread().getName();
            daemon = Thread.currentThread().isDaemon();
            context = address(requestContext);
            bufferSize = size.getInt(0);
            if (code == EtwConstants.WMI_ENABLE_EVENTS) {
                logger = etw.GetTraceLoggerHandle(buffer);
                level = etw.GetTraceEnableLevel(logger) & 0xFF;
                flags = etw.GetTraceEnableFlags(logger);
            }
            calls.incrementAndGet();
            return 0;
        }
    }

    /** A registration: handle, class RegHandles (read back from the TRACE_GUID_REGISTRATION array). */
    private static final class Registration {
        long handle;
        long[] classHandles;
        Memory regs;
    }

    private Registration register(NativeEtw.ControlCallback cb, Pointer context) {
        Memory control = guid(CONTROL);
        Memory classA = guid(CLASS_A);
        Memory classB = guid(CLASS_B);
        int size = L.traceGuidRegistrationSize();
        Memory regs = zeroed(2L * size);
        regs.setPointer(L.traceGuidRegistrationGuid(), classA);
        regs.setPointer(size + L.traceGuidRegistrationGuid(), classB);
        Memory handleOut = zeroed(8);

        assertEquals(0, etw.RegisterTraceGuidsW(cb, context, control, 2, regs, null, null, handleOut));

        Registration r = new Registration();
        r.handle = handleOut.getLong(0);
        r.regs = regs;
        r.classHandles = new long[] {
            regs.getLong(L.traceGuidRegistrationRegHandle()), regs.getLong(size + L.traceGuidRegistrationRegHandle())
        };
        return r;
    }

    // ---------------------------------------------------------------- token privileges

    @Test
    void systemProfilePrivilegeCallsArriveAsDocumentedAndTheLastErrorIsRead() throws IOException, EtwException {
        SystemProfilePrivilege.enable(etw, L);
        assertEquals(3, rec.stub_argc("OpenProcessToken"));
        assertEquals(-1L, rec.stub_arg("OpenProcessToken", 0), "GetCurrentProcess()'s pseudo handle");
        assertEquals(0x20 | 0x8, rec.stub_arg("OpenProcessToken", 1), "TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY");
        assertEquals(0, rec.stub_arg("LookupPrivilegeValueW", 0), "the local system");
        assertArrayEquals(utf16("SeSystemProfilePrivilege"), StubLibrary.blob("LookupPrivilegeValueW", 0));
        assertEquals(6, rec.stub_argc("AdjustTokenPrivileges"));
        assertEquals(0x7ABC, rec.stub_arg("AdjustTokenPrivileges", 0), "the token OpenProcessToken wrote");
        assertEquals(0, rec.stub_arg("AdjustTokenPrivileges", 1), "DisableAllPrivileges FALSE");
        assertEquals(16, rec.stub_arg("AdjustTokenPrivileges", 3));
        ByteBuffer tp = ByteBuffer.wrap(StubLibrary.blob("AdjustTokenPrivileges", 0)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, tp.getInt(0), "PrivilegeCount");
        assertEquals(11, tp.getLong(4), "the LUID LookupPrivilegeValueW wrote");
        assertEquals(2, tp.getInt(12), "SE_PRIVILEGE_ENABLED");
        assertEquals(1, rec.stub_calls("CloseHandle"));
        assertEquals(0x7ABC, rec.stub_arg("CloseHandle", 0));

        rec.stub_set_privilege_held(0); // TRUE with ERROR_NOT_ALL_ASSIGNED: read through GetLastError
        EtwException e = assertThrows(EtwException.class, () -> SystemProfilePrivilege.enable(etw, L));
        assertEquals(Win32Error.NOT_ALL_ASSIGNED, e.code());
        assertEquals(2, rec.stub_calls("CloseHandle"), "closed on failure too");
    }

    @Test
    void registerTraceGuidsPassesEightArgumentsAndFillsEveryRegHandle() throws IOException {
        RecordingCallback cb = new RecordingCallback(etw);
        Memory context = zeroed(4);
        Registration r = register(cb, context);

        assertEquals(8, rec.stub_argc("RegisterTraceGuidsW"));
        assertNotEquals(0, rec.stub_arg("RegisterTraceGuidsW", 0), "the callback arrives as a function pointer");
        assertEquals(address(context), rec.stub_arg("RegisterTraceGuidsW", 1));
        assertEquals(2, rec.stub_arg("RegisterTraceGuidsW", 3));
        assertEquals(address(r.regs), rec.stub_arg("RegisterTraceGuidsW", 4));
        assertEquals(0, rec.stub_arg("RegisterTraceGuidsW", 5), "MofImagePath NULL");
        assertEquals(0, rec.stub_arg("RegisterTraceGuidsW", 6), "MofResourceName NULL");
        assertArrayEquals(Guids.toBytes(CONTROL), blob("RegisterTraceGuidsW", 0), "control GUID in Windows byte order");
        byte[] classes = blob("RegisterTraceGuidsW", 1);
        assertArrayEquals(Guids.toBytes(CLASS_A), Arrays.copyOfRange(classes, 0, 16));
        assertArrayEquals(Guids.toBytes(CLASS_B), Arrays.copyOfRange(classes, 16, 32));
        assertEquals(0x2_0000_0000L, r.handle & 0xFFFF_FFFF_0000_0000L, "the 64-bit TRACEGUID_HANDLE by reference");
        assertEquals(0x3_0000_0101L, r.classHandles[0]);
        assertEquals(0x3_0000_0102L, r.classHandles[1]);
        assertEquals(0, cb.calls.get(), "not enabled yet: no callback");
        assertEquals(1, ((JnaNativeEtw) etw).liveCallbackCount());

        assertEquals(0, etw.UnregisterTraceGuids(r.handle));
        assertEquals(r.handle, rec.stub_arg("UnregisterTraceGuids", 0), "the handle by value, all 64 bits");
        assertEquals(0, ((JnaNativeEtw) etw).liveCallbackCount(), "released after a successful unregister");
        assertEquals(Win32Error.INVALID_PARAMETER, etw.UnregisterTraceGuids(r.handle), "already unregistered");
    }

    @Test
    void enableTraceFiresTheCallbackAndGetTraceLoggerHandleReadsItsHandle() throws IOException {
        long traceId = start("enable");
        RecordingCallback cb = new RecordingCallback(etw);
        Memory context = zeroed(4);
        register(cb, context);

        assertEquals(0, etw.EnableTrace(1, 0x8000_0041, TraceLevel.VERBOSE, guid(CONTROL), traceId));

        assertEquals(5, rec.stub_argc("EnableTrace"));
        assertEquals(0x8000_0041L, rec.stub_arg("EnableTrace", 1));
        assertEquals(traceId, rec.stub_arg("EnableTrace", 4), "the session id by value, all 64 bits");
        assertEquals(1, cb.calls.get());
        assertEquals(EtwConstants.WMI_ENABLE_EVENTS, cb.requestCode);
        assertEquals(address(context), cb.context, "RequestContext comes back as registered");
        assertEquals(EtwLayout.WNODE_HEADER_SIZE, cb.bufferSize);
        assertEquals(rec.stub_logger_handle(traceId), cb.logger, "GetTraceLoggerHandle returns HistoricalContext");
        assertEquals(cb.logger, rec.stub_arg("GetTraceEnableLevel", 0), "the logger handle by value, all 64 bits");
        assertEquals(TraceLevel.VERBOSE, cb.level);
        assertEquals(0x8000_0041, cb.flags);

        assertEquals(0, etw.EnableTrace(0, 0, 0, guid(CONTROL), traceId));
        assertEquals(2, cb.calls.get());
        assertEquals(EtwConstants.WMI_DISABLE_EVENTS, cb.requestCode);
    }

    /** ETW may call back on a thread of its own: JNA attaches it as the binding's daemon callback thread. */
    @Test
    void aCallbackOnAForeignNativeThreadRunsOnADaemonThread() {
        long traceId = start("thread");
        RecordingCallback cb = new RecordingCallback(etw);
        register(cb, null);
        rec.stub_set_callback_thread(1);
        assertEquals(0, etw.EnableTrace(1, 0x7, TraceLevel.ERROR, guid(CONTROL), traceId));
        assertEquals(1, cb.calls.get());
        assertEquals("jetw-etw-control-callback", cb.threadName);
        assertTrue(cb.daemon, "an attached callback thread never keeps the JVM alive");
        assertEquals(rec.stub_logger_handle(traceId), cb.logger);
        assertEquals(TraceLevel.ERROR, cb.level);
        assertEquals(0x7, cb.flags);
    }

    @Test
    void enableBeforeRegistrationEnablesAtRegistration() {
        long traceId = start("early");
        assertEquals(0, etw.EnableTrace(1, 0x10, TraceLevel.WARNING, guid(CONTROL), traceId));
        RecordingCallback cb = new RecordingCallback(etw);
        register(cb, null);
        assertEquals(1, cb.calls.get());
        assertEquals(TraceLevel.WARNING, cb.level);
        assertEquals(0x10, cb.flags);
        assertEquals(0, cb.context, "a null RequestContext arrives as NULL");
    }

    @Test
    void enableTraceEx2PassesEveryArgumentIntact() throws IOException {
        long traceId = start("ex2");
        RecordingCallback cb = new RecordingCallback(etw);
        register(cb, null);
        Memory provider = guid(CONTROL);

        assertEquals(0, etw.EnableTraceEx2(traceId, provider, EtwConstants.EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                (byte) 0xFE, 0xFFFF_FFFF_0000_0042L, 0x0123_4567_89AB_CDEFL, 5000, null));

        assertEquals(8, rec.stub_argc("EnableTraceEx2"));
        assertEquals(traceId, rec.stub_arg("EnableTraceEx2", 0));
        assertEquals(address(provider), rec.stub_arg("EnableTraceEx2", 1));
        assertEquals(1, rec.stub_arg("EnableTraceEx2", 2));
        assertEquals(0xFE, rec.stub_arg("EnableTraceEx2", 3), "UCHAR level, unsigned");
        assertEquals(0xFFFF_FFFF_0000_0042L, rec.stub_arg("EnableTraceEx2", 4), "MatchAnyKeyword, all 64 bits");
        assertEquals(0x0123_4567_89AB_CDEFL, rec.stub_arg("EnableTraceEx2", 5), "MatchAllKeyword, all 64 bits");
        assertEquals(5000, rec.stub_arg("EnableTraceEx2", 6));
        assertEquals(0, rec.stub_arg("EnableTraceEx2", 7));
        assertArrayEquals(Guids.toBytes(CONTROL), blob("EnableTraceEx2", 0));
        assertEquals(0xFE, cb.level);
        assertEquals(0x42, cb.flags, "classic provider: flags = MatchAnyKeyword truncated to a ULONG");

        assertEquals(0, etw.EnableTraceEx2(traceId, provider, EtwConstants.EVENT_CONTROL_CODE_DISABLE_PROVIDER,
                (byte) 0, 0, 0, 0, null));
        assertEquals(EtwConstants.WMI_DISABLE_EVENTS, cb.requestCode);
    }

    @Test
    void getTraceEnableLevelAndFlagsRaiseTheLastErrorForABadHandle() {
        LastErrorException level = assertThrows(LastErrorException.class, () -> etw.GetTraceEnableLevel(12345L));
        assertEquals(Win32Error.INVALID_HANDLE, level.getErrorCode());
        LastErrorException flags = assertThrows(LastErrorException.class, () -> etw.GetTraceEnableFlags(12345L));
        assertEquals(Win32Error.INVALID_HANDLE, flags.getErrorCode());

        // The documented "SetLastError(0), then call": a good call after a failed one must not inherit its error.
        long traceId = start("lasterror");
        RecordingCallback cb = new RecordingCallback(etw);
        register(cb, null);
        assertEquals(0, etw.EnableTrace(1, 0, 0, guid(CONTROL), traceId));
        assertThrows(LastErrorException.class, () -> etw.GetTraceEnableLevel(1L));
        assertEquals(0, etw.GetTraceEnableLevel(cb.logger), "level 0 with last error 0: enabled at level 0");
        assertEquals(0, etw.GetTraceEnableFlags(cb.logger));
    }

    @Test
    void getTraceLoggerHandleReadsHistoricalContextOfTheBufferItIsGiven() throws IOException {
        long traceId = start("wnode");
        Memory wnode = zeroed(EtwLayout.WNODE_HEADER_SIZE);
        wnode.setLong(EtwLayout.WNODE_HISTORICAL_CONTEXT, rec.stub_logger_handle(traceId));
        assertEquals(rec.stub_logger_handle(traceId), etw.GetTraceLoggerHandle(wnode));
        assertEquals(address(wnode), rec.stub_arg("GetTraceLoggerHandle", 0));
        wnode.setLong(EtwLayout.WNODE_HISTORICAL_CONTEXT, 99);
        assertEquals(-1L, etw.GetTraceLoggerHandle(wnode), "INVALID_HANDLE_VALUE (64-bit process)");
    }

    @Test
    void keepsTheCallbackReachableUntilUnregistered() {
        long traceId = start("gc");
        AtomicInteger fired = new AtomicInteger();
        NativeEtw.ControlCallback cb = (code, ctx, size, buffer) -> {
            fired.incrementAndGet();
            return 0;
        };
        WeakReference<NativeEtw.ControlCallback> weak = new WeakReference<>(cb);
        Registration r = register(cb, null);
        cb = null;
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        assertTrue(weak.get() != null, "the binding holds the registered callback strongly");
        assertEquals(0, etw.EnableTrace(1, 0, 4, guid(CONTROL), traceId));
        assertEquals(1, fired.get(), "ETW can still call it after GC");
        assertEquals(0, etw.UnregisterTraceGuids(r.handle));
    }

    // ---------------------------------------------------------------- events

    /** A registered, enabled provider: logger handle and class handles. */
    private long[] enabledProvider(RecordingCallback cb) {
        long traceId = start("events");
        Registration r = register(cb, null);
        assertEquals(0, etw.EnableTrace(1, 0xFF, TraceLevel.VERBOSE, guid(CONTROL), traceId));
        return new long[] {cb.logger, r.classHandles[0], r.classHandles[1], traceId};
    }

    private static Memory instanceHeader(long regHandle, long parentRegHandle, int type, int mofFields) {
        Memory h = zeroed(EtwLayout.EVENT_INSTANCE_HEADER_SIZE + (long) mofFields * EtwLayout.MOF_FIELD_SIZE);
        h.setShort(EtwLayout.EH_SIZE, (short) h.size());
        h.setByte(EtwLayout.EH_CLASS_TYPE, (byte) type);
        h.setByte(EtwLayout.EH_CLASS_LEVEL, (byte) TraceLevel.INFORMATION);
        h.setShort(EtwLayout.EH_CLASS_VERSION, (short) 2);
        h.setLong(EtwLayout.EIH_REG_HANDLE, regHandle);
        h.setInt(EtwLayout.EH_FLAGS, EtwConstants.WNODE_FLAG_TRACED_GUID
                | (mofFields > 0 ? EtwConstants.WNODE_FLAG_USE_MOF_PTR : 0));
        h.setLong(EtwLayout.EIH_PARENT_REG_HANDLE, parentRegHandle);
        return h;
    }

    private static void mof(Memory header, int index, Memory data) {
        long at = EtwLayout.EVENT_INSTANCE_HEADER_SIZE + (long) index * EtwLayout.MOF_FIELD_SIZE;
        header.setLong(at + EtwLayout.MOF_DATA_PTR, address(data));
        header.setInt(at + EtwLayout.MOF_LENGTH, (int) data.size());
    }

    @Test
    void createTraceInstanceIdFillsTheInfoAndIncrements() throws IOException {
        long[] p = enabledProvider(new RecordingCallback(etw));
        Pointer regHandle = new Pointer(p[1]);
        Memory info = zeroed(L.instanceInfoSize());
        for (int expected = 1; expected <= 3; expected++) {
            assertEquals(0, etw.CreateTraceInstanceId(regHandle, info));
            assertEquals(p[1], info.getLong(L.instanceInfoRegHandle()), "RegHandle, pointer-sized, all 64 bits");
            assertEquals(expected, info.getInt(L.instanceInfoInstanceId()));
        }
        assertEquals(2, rec.stub_argc("CreateTraceInstanceId"));
        assertEquals(p[1], rec.stub_arg("CreateTraceInstanceId", 0));
        assertEquals(address(info), rec.stub_arg("CreateTraceInstanceId", 1));

        rec.stub_set_last_instance_id(-1);   // ULONG max
        assertEquals(0, etw.CreateTraceInstanceId(regHandle, info));
        assertEquals(1, info.getInt(L.instanceInfoInstanceId()), "starts over at 1 after the ULONG maximum");
        assertEquals(Win32Error.INVALID_PARAMETER, etw.CreateTraceInstanceId(new Pointer(p[1] & 0xFFFF_FFFFL), info),
                "a RegHandle cut to 32 bits is not a handle");
    }

    @Test
    void traceEventInstancePassesHeaderInfoParentAndTheMofDataItPointsTo() throws IOException {
        long[] p = enabledProvider(new RecordingCallback(etw));
        Memory parent = zeroed(L.instanceInfoSize());
        Memory info = zeroed(L.instanceInfoSize());
        assertEquals(0, etw.CreateTraceInstanceId(new Pointer(p[2]), parent));
        assertEquals(0, etw.CreateTraceInstanceId(new Pointer(p[1]), info));
        Memory name = wide("com.example.Foo.bar");
        Memory number = zeroed(8);
        number.setLong(0, 0x1122_3344_5566_7788L);
        Memory header = instanceHeader(p[1], p[2], EventType.START, 2);
        mof(header, 0, name);
        mof(header, 1, number);
        byte[] headerSent = header.getByteArray(0, (int) header.size());

        assertEquals(0, etw.TraceEventInstance(p[0], header, info, parent));

        assertEquals(4, rec.stub_argc("TraceEventInstance"));
        assertEquals(p[0], rec.stub_arg("TraceEventInstance", 0), "the logger handle by value, all 64 bits");
        assertEquals(address(header), rec.stub_arg("TraceEventInstance", 1));
        assertEquals(address(info), rec.stub_arg("TraceEventInstance", 2));
        assertEquals(address(parent), rec.stub_arg("TraceEventInstance", 3));
        assertArrayEquals(Arrays.copyOf(headerSent, EtwLayout.EVENT_INSTANCE_HEADER_SIZE), blob("TraceEventInstance", 0));
        assertArrayEquals(info.getByteArray(0, 16), blob("TraceEventInstance", 1));
        assertArrayEquals(parent.getByteArray(0, 16), blob("TraceEventInstance", 2));
        byte[] payload = new byte[(int) (name.size() + number.size())];
        name.read(0, payload, 0, (int) name.size());
        number.read(0, payload, (int) name.size(), 8);
        assertArrayEquals(payload, blob("TraceEventInstance", 3), "the MOF data the fields point to, concatenated");

        assertEquals(0, etw.TraceEventInstance(p[0], instanceHeader(p[1], 0, EventType.END, 0), info, null));
        assertEquals(0, rec.stub_arg("TraceEventInstance", 3), "no parent: NULL");
        assertNull(blob("TraceEventInstance", 2));
    }

    @Test
    void traceEventInstanceAnswersAsDocumented() {
        long[] p = enabledProvider(new RecordingCallback(etw));
        Memory info = zeroed(L.instanceInfoSize());
        assertEquals(0, etw.CreateTraceInstanceId(new Pointer(p[1]), info));

        Memory noTracedGuid = instanceHeader(p[1], 0, EventType.CHECKPOINT, 0);
        noTracedGuid.setInt(EtwLayout.EH_FLAGS, 0);
        assertEquals(Win32Error.INVALID_FLAGS, etw.TraceEventInstance(p[0], noTracedGuid, info, null));

        Memory header = instanceHeader(p[1], 0, EventType.CHECKPOINT, 0);
        assertEquals(Win32Error.INVALID_PARAMETER, etw.TraceEventInstance(p[0], header, null, null), "NULL InstInfo");
        assertEquals(Win32Error.INVALID_PARAMETER,
                etw.TraceEventInstance(p[0], header, zeroed(L.instanceInfoSize()), null), "InstInfo.RegHandle NULL");
        Memory tooSmall = instanceHeader(p[1], 0, EventType.CHECKPOINT, 0);
        tooSmall.setShort(EtwLayout.EH_SIZE, (short) 40);
        assertEquals(Win32Error.INVALID_PARAMETER, etw.TraceEventInstance(p[0], tooSmall, info, null), "Size");
        assertEquals(Win32Error.INVALID_HANDLE, etw.TraceEventInstance(p[0] & 0xFFFF_FFFFL, header, info, null),
                "a logger handle cut to 32 bits");
        assertEquals(0, etw.TraceEventInstance(p[0], header, info, null));
    }

    @Test
    void traceEventPassesTheHeaderAndItsMofData() throws IOException {
        long[] p = enabledProvider(new RecordingCallback(etw));
        Memory data = wide("payload");
        Memory h = zeroed(EtwLayout.EVENT_TRACE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE);
        h.setShort(EtwLayout.EH_SIZE, (short) h.size());
        h.setByte(EtwLayout.EH_CLASS_TYPE, (byte) EventType.INFO);
        h.write(EtwLayout.ETH_GUID, Guids.toBytes(CLASS_A), 0, 16);
        h.setInt(EtwLayout.EH_FLAGS, EtwConstants.WNODE_FLAG_TRACED_GUID | EtwConstants.WNODE_FLAG_USE_MOF_PTR);
        h.setLong(EtwLayout.EVENT_TRACE_HEADER_SIZE + EtwLayout.MOF_DATA_PTR, address(data));
        h.setInt(EtwLayout.EVENT_TRACE_HEADER_SIZE + EtwLayout.MOF_LENGTH, (int) data.size());

        assertEquals(0, etw.TraceEvent(p[0], h));
        assertEquals(2, rec.stub_argc("TraceEvent"));
        assertEquals(p[0], rec.stub_arg("TraceEvent", 0));
        assertArrayEquals(h.getByteArray(0, EtwLayout.EVENT_TRACE_HEADER_SIZE), blob("TraceEvent", 0));
        assertArrayEquals(data.getByteArray(0, (int) data.size()), blob("TraceEvent", 2));

        h.setInt(EtwLayout.EH_FLAGS, 0);
        assertEquals(Win32Error.INVALID_FLAG_NUMBER, etw.TraceEvent(p[0], h));
    }

    // ---------------------------------------------------------------- the per-event path allocates nothing

    /**
     * Measures the calling thread's heap allocation (HotSpot's per-thread TLAB accounting) around
     * many per-event calls. Any per-call allocation (an Object[] of arguments, a boxed long) is at
     * least 16 bytes, i.e. at least 16 x CALLS bytes in total. The tolerance (64 KB for 200,000
     * calls, under 0.33 byte per call) covers one-off noise of the measurement itself; the control
     * measurement shows the instrument does see the interface mapping's per-call allocation.
     */
    @Test
    void thePerEventCallsAllocateNothingOnTheJavaHeap() {
        java.lang.management.ThreadMXBean plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter on this JVM");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(mx.isThreadAllocatedMemorySupported(), "per-thread allocation counting unsupported");
        mx.setThreadAllocatedMemoryEnabled(true);

        long[] p = enabledProvider(new RecordingCallback(etw));
        Pointer regHandle = new Pointer(p[1]);
        Memory info = zeroed(L.instanceInfoSize());
        Memory header = instanceHeader(p[1], 0, EventType.START, 1);
        Memory payload = zeroed(32);
        mof(header, 0, payload);
        long logger = p[0];
        long tid = Thread.currentThread().getId();

        Memory plainHeader = zeroed(EtwLayout.EVENT_TRACE_HEADER_SIZE);
        plainHeader.setShort(EtwLayout.EH_SIZE, (short) EtwLayout.EVENT_TRACE_HEADER_SIZE);
        plainHeader.setInt(EtwLayout.EH_FLAGS, EtwConstants.WNODE_FLAG_TRACED_GUID);
        int failures = perEventCalls(regHandle, info, header, plainHeader, logger, 20_000);   // warm-up: JIT, first-call linking
        final int calls = 200_000;
        long before = mx.getThreadAllocatedBytes(tid);
        failures += perEventCalls(regHandle, info, header, plainHeader, logger, calls);
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertEquals(0, failures, "every call succeeded");
        assertTrue(allocated < 64 * 1024, "TraceEventInstance + CreateTraceInstanceId + TraceEvent allocated "
                + allocated + " bytes over " + calls + " calls (" + crossing() + "); the per-event path must allocate"
                + " nothing");

        // Control: an interface-mapped call allocates per call, and this instrument sees it.
        Memory frequency = zeroed(8);
        final int controlCalls = 10_000;
        long controlBefore = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < controlCalls; i++) {
            etw.QueryPerformanceFrequency(frequency);
        }
        long controlAllocated = mx.getThreadAllocatedBytes(tid) - controlBefore;
        System.out.println("per-event path (" + crossing() + "): " + allocated + " bytes over " + calls
                + " x (CreateTraceInstanceId + TraceEventInstance + TraceEvent); interface-mapped"
                + " QueryPerformanceFrequency: " + controlAllocated + " bytes over " + controlCalls);
        assertTrue(controlAllocated > 16L * controlCalls,
                "the interface mapping allocates per call (" + controlAllocated + " bytes); the instrument works");
    }

    private int perEventCalls(Pointer regHandle, Memory info, Memory header, Memory plain, long logger, int n) {
        int failures = 0;
        for (int i = 0; i < n; i++) {
            if (etw.CreateTraceInstanceId(regHandle, info) != 0) {
                failures++;
            }
            if (etw.TraceEventInstance(logger, header, info, null) != 0) {
                failures++;
            }
            if (etw.TraceEvent(logger, plain) != 0) {
                failures++;
            }
        }
        return failures;
    }
}
