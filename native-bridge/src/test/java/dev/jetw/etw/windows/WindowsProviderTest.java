package dev.jetw.etw.windows;

import dev.jetw.etl.TruncationMark;
import com.sun.jna.LastErrorException;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etl.Guids;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etl.TraceLevel;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Paths;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The classic provider over the recorder: registration, the enable callback, and the bytes of every write. */
class WindowsProviderTest {

    static final UUID CONTROL = UUID.fromString("7a1b2c3d-1111-4e5f-9a0b-1c2d3e4f5a6b");
    static final UUID METHOD = UUID.fromString("7a1b2c3d-2222-4e5f-9a0b-1c2d3e4f5a6b");
    static final UUID THREAD = UUID.fromString("7a1b2c3d-3333-4e5f-9a0b-1c2d3e4f5a6b");
    /**
     * The own session's CONTROLTRACE_ID (the recorder's first) and the logger handle its enable at level
     * 5 sends: EnableTraceEx2 passes all classic flags (0xFFFFFFFF) when jetw asks for none.
     */
    static final long SESSION = 0x5000;
    static final long LOGGER = SESSION | 5L << 16 | 0xFFFF_FFFFL << 32;
    /** A session this JVM did not start: a killed JVM's leftover, or another tool's. */
    static final long OTHER_SESSION = 0x0000_0001_0000_7788L;

    RecordingNativeEtw rec;
    WindowsBackend backend;
    ClassicProvider provider;

    static List<EtwLayout> layouts() {
        return List.of(EtwLayout.X64, EtwLayout.X86);
    }

    /** The recorder, a backend over it, the own session "jetw" (4 KB .. 1 MB buffers) started, the provider registered, not enabled. */
    ClassicProvider register(EtwLayout layout) throws EtwException {
        return register(layout, 64);
    }

    ClassicProvider register(EtwLayout layout, int bufferKb) throws EtwException {
        rec = new RecordingNativeEtw(layout);
        backend = new WindowsBackend(rec, layout, WindowsVersion.parse("10.0"));
        backend.startSession(SessionConfig.builder().logFile(Paths.get("C:\\t\\a.etl")).bufferSizeKb(bufferKb).build());
        provider = ClassicProvider.register(backend, CONTROL, List.of(METHOD, THREAD));
        return provider;
    }

    /** jetw enables its provider in its own session, as TraceSession does. */
    void enableInOwnSession(int level, int flags) throws EtwException {
        backend.enableProvider("jetw", CONTROL, level, flags);
    }

    ClassicProvider registerAndEnable(EtwLayout layout) throws EtwException {
        register(layout);
        enableInOwnSession(5, 0);
        return provider;
    }

    @AfterEach
    void rulesHeld() {
        if (rec != null) {
            rec.assertNoViolations();
        }
    }

    // ------------------------------------------------------------ registration

    @ParameterizedTest
    @MethodSource("layouts")
    void registrationPassesControlAndClassGuids(EtwLayout layout) throws EtwException {
        register(layout);
        RecordingNativeEtw.Call r = rec.last("RegisterTraceGuidsW");
        assertEquals(CONTROL, r.guid);
        assertEquals(2, r.guidCount);
        assertEquals(List.of(METHOD, THREAD), r.classGuids);
        assertFalse(provider.isEnabled(), "disabled until a session enables it");
    }

    @Test
    void unregisterIsIdempotent() throws EtwException {
        register(EtwLayout.X64);
        provider.close();
        provider.close();
        assertEquals(1, rec.calls("UnregisterTraceGuids").size());
        assertEquals(rec.registrationHandle, rec.last("UnregisterTraceGuids").regHandle);
    }

    @Test
    void aFailedRegistrationThrowsWithTheControlGuid() {
        rec = new RecordingNativeEtw(EtwLayout.X64);
        rec.script("RegisterTraceGuidsW", Win32Error.INVALID_PARAMETER);
        EtwException e = org.junit.jupiter.api.Assertions.assertThrows(EtwException.class,
                () -> ClassicProvider.register(new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("10.0")),
                        CONTROL, List.of(METHOD)));
        assertEquals("RegisterTraceGuidsW", e.function());
        assertTrue(e.getMessage().contains(CONTROL.toString()), e.getMessage());
    }

    // ------------------------------------------------------------ whose enable counts (issue 30)

    /**
     * A killed JVM left its session running with jetw's control GUID enabled: ETW calls the next JVM's
     * provider back for it during RegisterTraceGuids. That enable is not the new JVM's; the enable
     * of the session it starts is, and every event goes there.
     */
    @ParameterizedTest
    @MethodSource("layouts")
    void aLeftoverSessionThatEnabledTheGuidDoesNotCaptureTheProvider(EtwLayout layout) throws EtwException {
        rec = new RecordingNativeEtw(layout);
        rec.foreignEnable(CONTROL, OTHER_SESSION, 5, 0); // the dead JVM's session, its provider long gone
        backend = new WindowsBackend(rec, layout, WindowsVersion.parse("10.0"));
        provider = ClassicProvider.register(backend, CONTROL, List.of(METHOD, THREAD));
        assertEquals(1, rec.calls("GetTraceLoggerHandle").size(), "ETW called back during the registration");
        assertFalse(provider.isEnabled(), "not by a session this JVM started");

        backend.startSession(SessionConfig.builder().logFile(Paths.get("C:\\t\\a.etl")).build());
        enableInOwnSession(5, 0);
        assertEquals(LOGGER, provider.loggerHandle(), "the own session's logger handle");
        EventScratch s = provider.newScratch();
        s.payload().clear();
        assertTrue(provider.write(s, EventType.START, TraceLevel.INFORMATION, 0, provider.newInstanceId(s, 0), -1, 0));
        assertEquals(SESSION, RecordingNativeEtw.loggerIdOf(rec.last("TraceEventInstance").logger),
                "the event goes to the own session, not to the leftover's file");
    }

    /** Another session enabling jetw's GUID while jetw traces (WPR, logman, a second jetw): ignored, the events stay in jetw's session. */
    @Test
    void aForeignEnableWhileEnabledIsIgnored() throws EtwException {
        register(EtwLayout.X64);
        enableInOwnSession(3, 0x1);
        rec.foreignEnable(CONTROL, OTHER_SESSION, 5, 0x2);
        assertEquals(SESSION, RecordingNativeEtw.loggerIdOf(provider.loggerHandle()));
        assertEquals(3, provider.enabledLevel());
        assertEquals(0x1, provider.enableFlags());
        enableInOwnSession(5, 0x3);
        assertEquals(5, provider.enabledLevel(), "the own session may change level and flags");
    }

    /** Issue 30 item 2: a disable from any other session leaves tracing on. */
    @Test
    void aDisableFromAnotherSessionLeavesTracingOn() throws EtwException {
        registerAndEnable(EtwLayout.X64);
        rec.foreignEnable(CONTROL, OTHER_SESSION, 5, 0);
        rec.foreignDisable(CONTROL, OTHER_SESSION);
        assertTrue(provider.isEnabled(5), "a disable from logger id 0x7788 is not the own session's");
        assertEquals(LOGGER, provider.loggerHandle());
        rec.request(EtwConstants.WMI_DISABLE_EVENTS, -1L); // GetTraceLoggerHandle failing: not a disable either
        assertTrue(provider.isEnabled(5));

        backend.disableProvider("jetw", CONTROL);
        assertFalse(provider.isEnabled(), "the own session's disable is honoured");
    }

    /** Before the own session is known, no enable counts: the provider never writes to a session it was not meant for. */
    @Test
    void anEnableBeforeTheOwnSessionIsKnownIsIgnored() throws EtwException {
        register(EtwLayout.X64);
        rec.enable(LOGGER, 5, 0);
        assertFalse(provider.isEnabled(), "the provider is not bound to a session yet");
    }

    /** A provider enabled into the own session before it registers (EnableTraceEx2 first) is bound to it at registration. */
    @Test
    void aProviderEnabledBeforeItRegistersTakesThatSessionAtRegistration() throws EtwException {
        rec = new RecordingNativeEtw(EtwLayout.X64);
        rec.foreignEnable(CONTROL, OTHER_SESSION, 5, 0);
        backend = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("10.0"));
        backend.startSession(SessionConfig.builder().logFile(Paths.get("C:\\t\\a.etl")).build());
        backend.enableProvider("jetw", CONTROL, 5, 0);
        provider = ClassicProvider.register(backend, CONTROL, List.of(METHOD));
        assertTrue(provider.isEnabled(5));
        assertEquals(LOGGER, provider.loggerHandle(), "the own session's enable, whichever ETW sent first");
    }

    /** EnableTraceEx2 waits for the callback: no enable from the own session afterwards is an error, not a silent trace of nothing. */
    @Test
    void anEnableTheCallbackNeverSawFromTheOwnSessionFailsWithWhatItSaw() throws EtwException {
        register(EtwLayout.X64);
        rec.loggerIdSkew = 0x11; // ETW's logger id is not the session handle's (never seen; the error must say so)
        EtwException e = org.junit.jupiter.api.Assertions.assertThrows(EtwException.class, () -> enableInOwnSession(5, 0));
        assertEquals("EnableTraceEx2", e.function());
        assertTrue(e.getMessage().contains("logger id 0x5000") && e.getMessage().contains("the last from logger id 0x5011"),
                e.getMessage());
        assertFalse(provider.isEnabled());
    }

    // ------------------------------------------------------------ enable callback

    @Test
    void enableCopiesLevelFlagsAndHandle() throws EtwException {
        register(EtwLayout.X64);
        enableInOwnSession(TraceLevel.INFORMATION, 0x5);
        assertTrue(provider.isEnabled(TraceLevel.INFORMATION));
        assertTrue(provider.isEnabled(TraceLevel.CRITICAL));
        assertFalse(provider.isEnabled(TraceLevel.VERBOSE));
        assertEquals(0x5, provider.enableFlags());
        long handle = rec.loggerHandleOf(SESSION, TraceLevel.INFORMATION, 0x5);
        assertEquals(handle, provider.loggerHandle());
        assertEquals(handle, rec.last("GetTraceEnableLevel").logger, "level read from the callback's logger handle");

        backend.disableProvider("jetw", CONTROL);
        assertFalse(provider.isEnabled(TraceLevel.CRITICAL));
        assertFalse(provider.isEnabled());
    }

    @Test
    void levelZeroEnablesEveryLevel() throws EtwException {
        register(EtwLayout.X64);
        enableInOwnSession(0, 0);
        assertTrue(provider.isEnabled(TraceLevel.VERBOSE));
    }

    @Test
    void otherRequestCodesAreIgnored() throws EtwException {
        register(EtwLayout.X64);
        for (int code : new int[] {0, 1, 2, 3, 6, 7, 8, 9, 10, 99}) {
            assertEquals(0, rec.request(code, LOGGER));
        }
        assertFalse(provider.isEnabled());
        enableInOwnSession(5, 0);
        for (int code : new int[] {0, 6, 7, 10}) {
            assertEquals(0, rec.request(code, LOGGER));
        }
        assertTrue(provider.isEnabled(5), "ignored codes do not disable either");
    }

    /** A TRACE_ENABLE_CONTEXT: LoggerId (low 16 bits), Level, InternalFlag, EnableFlags (upper 32 bits). */
    static long loggerHandle(int loggerId, int level, int flags) {
        return (loggerId & 0xFFFFL) | (long) (level & 0xFF) << 16 | (flags & 0xFFFFFFFFL) << 32;
    }

    @Test
    void aNewLevelFromTheSameLoggerIdIsAppliedThoughTheHandleDiffers() throws EtwException {
        register(EtwLayout.X64);
        enableInOwnSession(TraceLevel.ERROR, 0x1);
        long first = loggerHandle((int) SESSION, TraceLevel.ERROR, 0x1);
        assertEquals(first, provider.loggerHandle());
        assertFalse(provider.isEnabled(TraceLevel.VERBOSE));
        long second = loggerHandle((int) SESSION, TraceLevel.VERBOSE, 0x3);
        rec.enable(second, TraceLevel.VERBOSE, 0x3);
        assertTrue(provider.isEnabled(TraceLevel.VERBOSE), "same logger id 0x5000: the new level applies");
        assertEquals(0x3, provider.enableFlags());
        assertEquals(second, provider.loggerHandle(), "writes go with the newest handle");
        // another logger id is another session
        rec.enable(loggerHandle(0x13, TraceLevel.CRITICAL, 0), TraceLevel.CRITICAL, 0);
        assertEquals(second, provider.loggerHandle());
        assertTrue(provider.isEnabled(TraceLevel.VERBOSE));
    }

    @Test
    void aFailingLevelQueryMeansNotEnabledAndNeverThrows() throws EtwException {
        registerAndEnable(EtwLayout.X64);
        rec.enableQueryFailure = new LastErrorException(Win32Error.INVALID_HANDLE);
        assertEquals(0, rec.enable(LOGGER, 5, 0));
        assertFalse(provider.isEnabled());
        rec.enableQueryFailure = new IllegalStateException("anything at all");
        assertEquals(0, rec.enable(LOGGER, 5, 0));
        assertFalse(provider.isEnabled());
        rec.enableQueryFailure = null;
        rec.enable(LOGGER, 5, 0);
        assertTrue(provider.isEnabled(5));
    }

    @Test
    void anInvalidLoggerHandleIsNotAnEnable() throws EtwException {
        register(EtwLayout.X64);
        enableInOwnSession(5, 0);
        backend.disableProvider("jetw", CONTROL);
        rec.enable(-1L, 5, 0);
        assertFalse(provider.isEnabled());
        rec.enable(0L, 5, 0);
        assertFalse(provider.isEnabled());
        register(EtwLayout.X86);
        enableInOwnSession(5, 0);
        backend.disableProvider("jetw", CONTROL);
        rec.enable(0xFFFFFFFFL, 5, 0); // INVALID_HANDLE_VALUE in a 32-bit process
        assertFalse(provider.isEnabled());
    }

    // ------------------------------------------------------------ writes

    static void putPayload(EventScratch s, String text) {
        ByteBuffer p = s.payload(2 * (text.length() + 1));
        for (char c : text.toCharArray()) {
            p.putChar(c);
        }
        p.putChar('\0');
    }

    static byte[] payloadBytes(String text) {
        ByteBuffer b = ByteBuffer.allocate(2 * text.length() + 2).order(ByteOrder.LITTLE_ENDIAN);
        for (char c : text.toCharArray()) {
            b.putChar(c);
        }
        b.putChar('\0');
        return b.array();
    }

    long handleAt(ByteBuffer b, int offset, EtwLayout layout) {
        return layout.pointerSize() == 8 ? b.getLong(offset) : b.getInt(offset) & 0xFFFFFFFFL;
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void startCheckpointEndCarryTypeLevelHandlesInstanceAndParent(EtwLayout layout) throws EtwException {
        registerAndEnable(layout);
        WindowsScratch s = (WindowsScratch) provider.newScratch();
        long methodReg = rec.classRegHandles.get(0);
        long threadReg = rec.classRegHandles.get(1);

        int parent = provider.newInstanceId(s, 1);
        int id = provider.newInstanceId(s, 0);
        assertNotEquals(0, id);
        assertNotEquals(parent, id);
        assertEquals(methodReg, rec.last("CreateTraceInstanceId").regHandle);

        int[] types = {EventType.START, EventType.CHECKPOINT, EventType.END};
        for (int type : types) {
            putPayload(s, "m" + type);
            assertTrue(provider.write(s, type, TraceLevel.INFORMATION, 0, id, 1, parent));
            RecordingNativeEtw.Call c = rec.last("TraceEventInstance");
            ByteBuffer h = c.headerBytes();
            assertEquals(LOGGER, c.logger, "the callback's logger handle");
            assertEquals(56 + 16, h.getShort(0), "Size = header + one MOF_FIELD");
            assertEquals(type, h.get(4), "Class.Type");
            assertEquals(TraceLevel.INFORMATION, h.get(5), "Class.Level");
            assertEquals(0, h.getShort(6), "Class.Version");
            assertEquals(methodReg, h.getLong(24), "RegHandle (64-bit on both)");
            assertEquals(0x00020000 | 0x00100000, h.getInt(44), "Flags = TRACED_GUID | USE_MOF_PTR");
            assertEquals(threadReg, h.getLong(48), "ParentRegHandle");
            assertEquals(s.payloadAddress, h.getLong(56), "MOF DataPtr = payload");
            assertEquals(2 * 2 + 2, h.getInt(64), "MOF Length = payload position");
            assertArrayEquals(payloadBytes("m" + type), c.payload);

            ByteBuffer info = ByteBuffer.wrap(c.info).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(layout.instanceInfoSize(), c.info.length);
            assertEquals(methodReg, handleAt(info, 0, layout));
            assertEquals(id, info.getInt(layout.pointerSize()));
            ByteBuffer pi = ByteBuffer.wrap(c.parentInfo).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(threadReg, handleAt(pi, 0, layout));
            assertEquals(parent, pi.getInt(layout.pointerSize()));
        }
        assertEquals(3, provider.eventsWritten());
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void anEventWithoutParentPassesNoParentInfo(EtwLayout layout) throws EtwException {
        registerAndEnable(layout);
        EventScratch s = provider.newScratch();
        int id = provider.newInstanceId(s, 1);
        s.payload().clear();
        assertTrue(provider.write(s, EventType.START, TraceLevel.VERBOSE, 1, id, -1, 0));
        RecordingNativeEtw.Call c = rec.last("TraceEventInstance");
        assertNull(c.parentInfo);
        assertEquals(0L, c.headerBytes().getLong(48), "no ParentRegHandle");
        assertEquals(rec.classRegHandles.get(1).longValue(), c.headerBytes().getLong(24));
        assertEquals(0, c.headerBytes().getInt(64), "empty payload");
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aPlainEventGoesThroughTraceEventWithTheClassGuid(EtwLayout layout) throws EtwException {
        registerAndEnable(layout);
        WindowsScratch s = (WindowsScratch) provider.newScratch();
        putPayload(s, "hello");
        assertTrue(provider.write(s, EventType.INFO, TraceLevel.WARNING, 1, 0, -1, 0));
        assertTrue(rec.calls("TraceEventInstance").isEmpty());
        RecordingNativeEtw.Call c = rec.last("TraceEvent");
        ByteBuffer h = c.headerBytes();
        assertEquals(48 + 16, h.getShort(0));
        assertEquals(EventType.INFO, h.get(4));
        assertEquals(TraceLevel.WARNING, h.get(5));
        assertEquals(THREAD, Guids.get(h, 24));
        assertEquals(0x00020000 | 0x00100000, h.getInt(44));
        assertEquals(s.payloadAddress, h.getLong(48));
        assertEquals(12, h.getInt(56));
        assertArrayEquals(payloadBytes("hello"), c.payload);
        assertEquals(LOGGER, c.logger);
    }

    @Test
    void droppedCodesAreCountedNeverThrown() throws EtwException {
        registerAndEnable(EtwLayout.X64);
        EventScratch s = provider.newScratch();
        int id = provider.newInstanceId(s, 0);
        int[] dropped = {Win32Error.NOT_ENOUGH_MEMORY, Win32Error.OUTOFMEMORY, Win32Error.MORE_DATA,
                Win32Error.LOG_FILE_FULL, Win32Error.STATUS_LOG_FILE_FULL};
        rec.script("TraceEventInstance", dropped);
        for (int i = 0; i < dropped.length; i++) {
            s.payload().clear();
            assertFalse(provider.write(s, EventType.START, 4, 0, id, -1, 0), "code " + dropped[i]);
        }
        assertEquals(5, provider.eventsDropped());
        s.payload().clear();
        assertTrue(provider.write(s, EventType.END, 4, 0, id, -1, 0));
        assertEquals(1, provider.eventsWritten());
    }

    @Test
    void aDisabledProviderReachesNoNativeWrite() throws EtwException {
        register(EtwLayout.X64);
        EventScratch s = provider.newScratch();
        s.payload().clear();
        assertFalse(provider.write(s, EventType.START, 4, 0, 1, -1, 0));
        assertTrue(rec.calls("TraceEventInstance").isEmpty());
        enableInOwnSession(5, 0);
        backend.disableProvider("jetw", CONTROL);
        assertFalse(provider.write(s, EventType.START, 4, 0, 1, -1, 0));
        provider.close();
        assertFalse(provider.write(s, EventType.START, 4, 0, 1, -1, 0));
        assertTrue(rec.calls("TraceEventInstance").isEmpty());
    }

    /** EVENT_INSTANCE_HEADER: the 8-byte aligned record must be strictly smaller than buffer − 72; Size is a USHORT. */
    static boolean recordFits(int payloadBytes, int bufferKb) {
        int record = 72 + payloadBytes;
        int aligned = (record + 7) & ~7;
        return aligned < bufferKb * 1024 - 72 && record <= 0xFFFF;
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {4, 8, 64, 1024})
    void theLargestPayloadMakesTheRecordStrictlySmallerThanBufferMinus72(int kb) throws EtwException {
        register(EtwLayout.X64, kb);
        enableInOwnSession(5, 0);
        int max = provider.maxPayloadBytes();
        assertTrue(recordFits(max, kb), max + " bytes in " + kb + " KB buffers");
        assertFalse(recordFits(max + 1, kb), "one byte more must not fit: " + (max + 1));
    }

    @Test
    void anUnknownSessionIsAssumedToHave64KbBuffers() throws EtwException {
        register(EtwLayout.X64);
        int max = provider.maxPayloadBytes();
        assertTrue(recordFits(max, 64));
        assertFalse(recordFits(max + 1, 64));
    }

    @Test
    void anOversizedPayloadIsCutKeepsItsVersionAndEndsWithTheMarkAndANul() throws EtwException {
        register(EtwLayout.X64, 4);
        enableInOwnSession(5, 0);
        EventScratch s = provider.newScratch();
        int id = provider.newInstanceId(s, 0);
        putPayload(s, "x".repeat(3000)); // 6002 bytes, a 4 KB buffer takes less
        assertTrue(provider.write(s, EventType.END, 4, 0, id, -1, 0));
        RecordingNativeEtw.Call c = rec.last("TraceEventInstance");
        ByteBuffer h = c.headerBytes();
        int max = provider.maxPayloadBytes();
        assertEquals(max, h.getInt(64), "MOF_FIELD.Length: cut to the limit");
        assertEquals(0, h.getShort(6) & 0xFFFF, "Class.Version stays the MOF's EventVersion 0");
        assertEquals(max, c.payload.length);
        assertEquals("x".repeat(max / 2 - 2) + TruncationMark.CHARACTER,
                RecordingNativeEtw.wideAt(ByteBuffer.wrap(c.payload).order(ByteOrder.LITTLE_ENDIAN), 0),
                "the string stays NUL-terminated and ends with the mark");
        assertTrue(TruncationMark.endsPayload(c.payload));
        assertEquals(1, provider.eventsTruncated());

        putPayload(s, "short");
        assertTrue(provider.write(s, EventType.END, 4, 0, id, -1, 0));
        assertFalse(TruncationMark.endsPayload(rec.last("TraceEventInstance").payload));
        assertEquals(1, provider.eventsTruncated());
    }

    @Test
    void aGrownPayloadIsWhatTheMofPointerPointsAt() throws EtwException {
        registerAndEnable(EtwLayout.X64);
        WindowsScratch s = (WindowsScratch) provider.newScratch();
        int id = provider.newInstanceId(s, 0);
        putPayload(s, "small");
        assertTrue(provider.write(s, EventType.START, 4, 0, id, -1, 0));
        long smallAddress = s.payloadAddress;

        String big = "x".repeat(EventScratch.INITIAL_PAYLOAD); // 2 bytes a char: twice the initial capacity
        putPayload(s, big);
        assertTrue(provider.write(s, EventType.END, 4, 0, id, -1, 0));
        RecordingNativeEtw.Call c = rec.last("TraceEventInstance");
        assertNotEquals(smallAddress, s.payloadAddress, "the payload moved to a larger block");
        assertEquals(s.payloadAddress, c.headerBytes().getLong(56), "MOF DataPtr = the grown payload");
        assertArrayEquals(payloadBytes(big), c.payload, "the whole payload, read through the pointer");
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aSmallWriteHandsTheWordsLowBytesToTraceEventInstance(EtwLayout layout) throws EtwException {
        registerAndEnable(layout);
        WindowsScratch s = (WindowsScratch) provider.newScratch();
        int id = provider.newInstanceId(s, 0);
        s.payload(16).putLong(-1L); // a staged payload in progress: writeSmall must leave its position alone
        assertTrue(provider.writeSmall(s, EventType.END, TraceLevel.INFORMATION, 0, id, -1, 0, 0x0000_0000_1234_5678L, 6));
        RecordingNativeEtw.Call c = rec.last("TraceEventInstance");
        assertEquals(6, c.headerBytes().getInt(64), "MOF Length = the small payload's length");
        assertEquals(s.payloadAddress, c.headerBytes().getLong(56), "MOF DataPtr = the payload memory");
        assertArrayEquals(new byte[]{0x78, 0x56, 0x34, 0x12, 0, 0}, c.payload, "method id, then an empty UTF-16 string");
        assertEquals(8, s.payload().position(), "the staged payload's position is untouched");
        assertEquals(1, provider.eventsWritten());
    }

    /** The SPI is public: the backend itself, called without ClassicProvider, refuses a word payload over 8 bytes. */
    @Test
    void theBackendRefusesASmallPayloadOverEightBytesWithoutCallingEtw() throws EtwException {
        registerAndEnable(EtwLayout.X64);
        dev.jetw.etw.ProviderBackend direct = backend.registerProvider(UUID.randomUUID(), List.of(METHOD),
                new dev.jetw.etw.EnableListener() {
                    @Override
                    public void onEnable(int level, int flags, long handle) {
                    }

                    @Override
                    public void onDisable() {
                    }
                });
        EventScratch s = direct.newScratch();
        int before = rec.calls("TraceEventInstance").size();
        assertEquals(Win32Error.INVALID_PARAMETER, direct.writeSmall(s, EventType.END, 4, 0, 0, 1, -1, 0, 1L, 9));
        assertEquals(Win32Error.INVALID_PARAMETER, direct.writeSmall(s, EventType.END, 4, 0, 0, 1, -1, 0, 1L, -1));
        assertEquals(before, rec.calls("TraceEventInstance").size(), "no TraceEventInstance for a refused write");
        direct.unregister();
    }

    @Test
    void theProviderEnabledBeforeRegistrationLearnsTheBufferSize() throws EtwException {
        rec = new RecordingNativeEtw(EtwLayout.X64);
        backend = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("10.0"));
        backend.startSession(SessionConfig.builder().logFile(Paths.get("C:\\t\\a.etl")).bufferSizeKb(16).build());
        backend.enableProvider("jetw", CONTROL, 5, 0);
        provider = ClassicProvider.register(backend, CONTROL, List.of(METHOD));
        assertTrue(recordFits(provider.maxPayloadBytes(), 16));
        assertFalse(recordFits(provider.maxPayloadBytes() + 1, 16), "the 16 KB limit, not the 64 KB default");
    }

    @Test
    void writesAllocateNothingOnTheHeap() throws EtwException {
        registerAndEnable(EtwLayout.X64);
        rec.recordEvents = false;
        EventScratch s = provider.newScratch();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        for (int round = 0; round < 3; round++) {
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 20_000; i++) {
                int id = provider.newInstanceId(s, 0);
                s.payload().clear();
                s.payload().putLong(i);
                provider.write(s, EventType.START, 4, 0, id, 1, 7);
                provider.write(s, EventType.END, 4, 0, id, -1, 0);
                provider.write(s, EventType.INFO, 4, 1, 0, -1, 0);
            }
            long allocated = mx.getThreadAllocatedBytes(tid) - before;
            if (round == 2) {
                // 60,000 writes: even 8 bytes per event would be 480 KB; allow incidental JVM noise only.
                assertTrue(allocated < 64 * 1024, "allocated " + allocated + " bytes for 60,000 writes");
            }
        }
        assertEquals(180_000, provider.eventsWritten(), "all writes accepted");
        assertEquals(0, provider.eventsDropped());
    }
}
