package dev.jetw.etw.windows;

import dev.jetw.etw.EtwException;
import dev.jetw.etl.Guids;
import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.OrphanPolicy;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionController;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** WindowsBackend's session control over the recorder: orphan policy, stop codes, kernel correlation, enabling. */
class WindowsBackendTest {

    static final String FILE = "C:\\traces\\jetw.etl";
    static final UUID CONTROL = UUID.fromString("b1e2c3d4-0001-4a5b-8c9d-0123456789ab");
    static final UUID CLASS = UUID.fromString("b1e2c3d4-0002-4a5b-8c9d-0123456789ab");

    RecordingNativeEtw rec = new RecordingNativeEtw(EtwLayout.X64);
    WindowsBackend backend = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("10.0"));

    @AfterEach
    void rulesHeld() {
        rec.assertNoViolations();
    }

    static SessionConfig.Builder config() {
        return SessionConfig.builder().sessionName("jetw").logFile(Paths.get(FILE));
    }

    List<String> sequence() {
        List<String> out = new ArrayList<>();
        for (RecordingNativeEtw.Call c : rec.calls) {
            out.add(c.function.equals("ControlTraceW") ? "ControlTraceW:" + c.controlCode + ":" + c.name : c.function + ":" + c.name);
        }
        return out;
    }

    // ------------------------------------------------------------ orphan policy

    @Test
    void restartStopsTheOrphanByNameAndStartsAgainOnce() throws EtwException {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS, 0);
        backend.startSession(config().orphanPolicy(OrphanPolicy.RESTART).build());
        assertEquals(List.of("StartTraceW:jetw", "ControlTraceW:1:jetw", "StartTraceW:jetw", "ControlTraceW:0:jetw"), sequence());
        RecordingNativeEtw.Call stop = rec.calls("ControlTraceW").get(0);
        assertEquals(0L, stop.traceId, "stop by name with handle 0");
        // the retry gets a fresh buffer with the same properties
        assertEquals(ByteBuffer.wrap(rec.calls("StartTraceW").get(0).properties),
                ByteBuffer.wrap(rec.calls("StartTraceW").get(1).properties));
    }

    @Test
    void restartIsTheDefault() throws EtwException {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS, 0);
        backend.startSession(config().build());
        assertEquals(2, rec.calls("StartTraceW").size());
    }

    @Test
    void restartToleratesAnOrphanThatIsAlreadyGone() throws EtwException {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS, 0).script("ControlTraceW", Win32Error.WMI_INSTANCE_NOT_FOUND);
        backend.startSession(config().build());
        assertEquals(2, rec.calls("StartTraceW").size());
    }

    @Test
    void restartRetriesOnlyOnce() {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS, Win32Error.ALREADY_EXISTS);
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(config().build()));
        assertEquals(Win32Error.ALREADY_EXISTS, e.code());
        assertEquals(2, rec.calls("StartTraceW").size());
    }

    @Test
    void restartFailsWhenTheOrphanCannotBeStopped() {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS).script("ControlTraceW", Win32Error.ACCESS_DENIED);
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(config().build()));
        assertEquals("ControlTraceW", e.function());
        assertEquals(Win32Error.ACCESS_DENIED, e.code());
        assertEquals(1, rec.calls("StartTraceW").size());
    }

    @Test
    void reuseQueriesTheRunningSessionAndTakesHistoricalContextAsItsId() throws EtwException {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS);
        rec.answer("jetw").historicalContext = 0x77AB;
        rec.answer("jetw").bufferSizeKb = 16;
        backend.startSession(config().orphanPolicy(OrphanPolicy.REUSE).build());
        assertEquals(1, rec.calls("StartTraceW").size());
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_QUERY, rec.calls("ControlTraceW").get(0).controlCode);
        backend.enableProvider("jetw", CONTROL, 5, 0);
        assertEquals(0x77ABL, rec.last("EnableTraceEx2").traceId);
    }

    @Test
    void failRefusesWithCode183AndAdvice() {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS);
        EtwException e = assertThrows(EtwException.class,
                () -> backend.startSession(config().orphanPolicy(OrphanPolicy.FAIL).build()));
        assertEquals(Win32Error.ALREADY_EXISTS, e.code());
        assertEquals("StartTraceW", e.function());
        assertEquals("ERROR_ALREADY_EXISTS", e.codeName());
        assertTrue(e.getMessage().contains("'jetw'"), e.getMessage());
        assertTrue(e.getMessage().contains("already running"), e.getMessage());
        assertTrue(e.getMessage().contains("orphan=restart|reuse"), e.getMessage());
        assertTrue(rec.calls("ControlTraceW").isEmpty(), "FAIL stops nothing");
    }

    @Test
    void otherStartCodesFailAtOnceWithAdvice() {
        rec.script("StartTraceW", Win32Error.ACCESS_DENIED);
        EtwException denied = assertThrows(EtwException.class, () -> backend.startSession(config().build()));
        assertEquals(Win32Error.ACCESS_DENIED, denied.code());
        assertTrue(denied.getMessage().contains("Performance Log Users"), denied.getMessage());
        assertTrue(denied.getMessage().contains(FILE), denied.getMessage());
        assertEquals(1, rec.calls("StartTraceW").size(), "no orphan handling for 5");
        assertTrue(rec.calls("ControlTraceW").isEmpty());

        rec.script("StartTraceW", Win32Error.BAD_PATHNAME);
        EtwException path = assertThrows(EtwException.class, () -> backend.startSession(config().build()));
        assertEquals(Win32Error.BAD_PATHNAME, path.code());
        assertTrue(path.getMessage().contains("folder does not exist"), path.getMessage());
        assertTrue(path.getMessage().contains(FILE), path.getMessage());
    }

    @Test
    void aStartedSessionIsReportedEvenWhenTheFollowingQueryFails() throws EtwException {
        rec.script("ControlTraceW", Win32Error.ACCESS_DENIED);
        SessionStats s = backend.startSession(config().build());
        assertEquals("jetw", s.sessionName());
        assertEquals(FILE, s.logFile());
        assertEquals(List.of("StartTraceW:jetw", "ControlTraceW:0:jetw"), sequence());
    }

    // ------------------------------------------------------------ control

    @Test
    void queryReportsTheOutputMembers() throws EtwException {
        statsAnswer(rec, 0x0000_1234_5678_9ABCL);
        SessionStats s = backend.querySession("jetw");
        assertStats(s, 0x0000_1234_5678_9ABCL);
    }

    @Test
    void queryOnX86ReadsThePointerSizedLoggerThreadIdAs32Bits() throws EtwException {
        RecordingNativeEtw x86 = new RecordingNativeEtw(EtwLayout.X86);
        statsAnswer(x86, 0x8765_4321L);
        SessionStats s = new WindowsBackend(x86, EtwLayout.X86, WindowsVersion.parse("6.1")).querySession("jetw");
        assertStats(s, 0x8765_4321L);
        x86.assertNoViolations();
    }

    static void statsAnswer(RecordingNativeEtw r, long threadId) {
        RecordingNativeEtw.SessionAnswer a = r.answer("jetw");
        a.numberOfBuffers = 11;
        a.freeBuffers = 7;
        a.eventsLost = 3;
        a.buffersWritten = 99;
        a.logBuffersLost = 2;
        a.realTimeBuffersLost = 1;
        a.loggerThreadId = threadId;
        a.logFile = FILE;
    }

    static void assertStats(SessionStats s, long threadId) {
        assertEquals("jetw", s.sessionName());
        assertEquals(FILE, s.logFile());
        assertEquals(11, s.numberOfBuffers());
        assertEquals(7, s.freeBuffers());
        assertEquals(3, s.eventsLost());
        assertEquals(99, s.buffersWritten());
        assertEquals(2, s.logBuffersLost());
        assertEquals(1, s.realTimeBuffersLost());
        assertEquals(threadId, s.loggerThreadId());
    }

    @Test
    void stopReturnsFinalStats() throws EtwException {
        statsAnswer(rec, 42);
        SessionStats s = backend.stopSession("jetw");
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_STOP, rec.last("ControlTraceW").controlCode);
        assertEquals(0L, rec.last("ControlTraceW").traceId);
        assertStats(s, 42);
    }

    @Test
    void stopOfASessionThatIsNotRunningReturnsNull() throws EtwException {
        rec.script("ControlTraceW", Win32Error.WMI_INSTANCE_NOT_FOUND);
        assertNull(backend.stopSession("jetw"));
    }

    /**
     * ControlTraceW, STOP: ERROR_MORE_DATA (234) means ETW stopped the session before reporting it;
     * ERROR_ACTIVE_CONNECTIONS (2402) that the session is already being stopped (issue 30 item 6).
     */
    @ParameterizedTest
    @ValueSource(ints = {Win32Error.MORE_DATA, Win32Error.ACTIVE_CONNECTIONS})
    void stopOfASessionStoppedOrAlreadyStoppingIsNotAnError(int code) throws EtwException {
        rec.script("ControlTraceW", code);
        SessionStats s = backend.stopSession("jetw");
        assertNotNull(s, "stopped, or being stopped: nothing left to stop, statistics unknown");
        assertEquals(0, s.buffersWritten());
    }

    @Test
    void restartToleratesAnOrphanThatIsAlreadyStopping() throws EtwException {
        rec.script("StartTraceW", Win32Error.ALREADY_EXISTS);
        rec.script("ControlTraceW", Win32Error.ACTIVE_CONNECTIONS);
        backend.startSession(config().build());
        assertEquals(2, rec.calls("StartTraceW").size());
    }

    @ParameterizedTest
    @ValueSource(ints = {Win32Error.ACCESS_DENIED, Win32Error.INVALID_PARAMETER, Win32Error.BAD_LENGTH})
    void otherStopCodesAreErrors(int code) {
        rec.script("ControlTraceW", code);
        EtwException e = assertThrows(EtwException.class, () -> backend.stopSession("jetw"));
        assertEquals(code, e.code());
        assertTrue(e.getMessage().contains("'jetw'"), e.getMessage());
    }

    @Test
    void onlyTheDocumentedCodesCountAsAlreadyStopped() {
        for (int code = 0; code < 5000; code++) {
            assertEquals(code == 4201 || code == 234 || code == 2402, WindowsBackend.isAlreadyStopped(code), "code " + code);
        }
    }

    @Test
    void updateSetsOnlyUpdatableMembersAndKeepsTheSameLogFile() throws EtwException {
        rec.answer("jetw").logFile = FILE;
        backend.updateSession(config().flushTimerSeconds(9).maximumBuffers(200).build());
        RecordingNativeEtw.Call u = rec.last("ControlTraceW");
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_UPDATE, u.controlCode);
        ByteBuffer b = u.props();
        assertEquals(9, b.getInt(EtwLayout.ETP_FLUSH_TIMER));
        assertEquals(200, b.getInt(EtwLayout.ETP_MAXIMUM_BUFFERS));
        assertEquals(0, b.getInt(EtwLayout.ETP_BUFFER_SIZE), "buffer size is not updatable");
        assertEquals(0, b.getInt(EtwLayout.X64.etpLogFileNameOffset()), "same file: offset 0 (a non-zero offset with the same name fails)");

        backend.updateSession(config().logFile(Paths.get("C:\\traces\\next.etl")).build());
        b = rec.last("ControlTraceW").props();
        int off = b.getInt(EtwLayout.X64.etpLogFileNameOffset());
        assertEquals(2168, off);
        assertEquals("C:\\traces\\next.etl", RecordingNativeEtw.wideAt(b, off));
    }

    @Test
    void updateThroughTheControllerKeepsTheSystemLoggersKernelFlags() throws EtwException {
        SessionConfig c = config().modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER)
                .kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD)).build();
        rec.answer("jetw").logFile = FILE;
        rec.answer("jetw").enableFlags = 0x3; // what QUERY reports: the kernel providers the session runs
        SessionController controller = SessionController.start(backend, c);
        controller.update(c.toBuilder().flushTimerSeconds(5).build());
        RecordingNativeEtw.Call u = rec.last("ControlTraceW");
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_UPDATE, u.controlCode);
        assertEquals(0x3, u.props().getInt(EtwLayout.ETP_ENABLE_FLAGS), "ControlTraceW: 0 would disable the kernel providers");
        assertEquals(5, u.props().getInt(EtwLayout.ETP_FLUSH_TIMER));
    }

    @Test
    void listSessionsReadsQueryAllTracesAndGrowsOnMoreData() throws EtwException {
        for (int i = 0; i < 70; i++) {
            rec.runningSessions.add("session-" + i);
        }
        List<String> names = backend.listSessions();
        assertEquals(70, names.size());
        assertEquals("session-69", names.get(69));
        assertEquals(List.of(64, 256), List.of(rec.calls("QueryAllTracesW").get(0).guidCount, rec.calls("QueryAllTracesW").get(1).guidCount));
    }

    @Test
    void listSessionsWithTheX86PointerArray() throws EtwException {
        RecordingNativeEtw x86 = new RecordingNativeEtw(EtwLayout.X86);
        x86.runningSessions.addAll(List.of("NT Kernel Logger", "jetw"));
        assertEquals(List.of("NT Kernel Logger", "jetw"), new WindowsBackend(x86, EtwLayout.X86, WindowsVersion.parse("6.1")).listSessions());
        x86.assertNoViolations();
    }

    // ------------------------------------------------------------ kernel correlation

    @Test
    void windows8AndLaterPutKernelFlagsIntoTheSameSessionAsASystemLogger() throws EtwException {
        SessionConfig c = config().modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER).kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.IMAGE_LOAD)).build();
        new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("6.2")).startSession(c);
        assertEquals(1, rec.calls("StartTraceW").size(), "no second session");
        ByteBuffer b = rec.last("StartTraceW").props();
        assertEquals(0x1 | 0x2 | 0x4, b.getInt(EtwLayout.ETP_ENABLE_FLAGS));
        assertEquals(0x02000000, b.getInt(EtwLayout.ETP_LOG_FILE_MODE) & 0x02000000, "EVENT_TRACE_SYSTEM_LOGGER_MODE");
        assertEquals(0x1, b.getInt(EtwLayout.ETP_LOG_FILE_MODE) & 0x1, "keeps sequential");
        UUID first = Guids.get(b, EtwLayout.WNODE_GUID);
        assertNotEquals(new UUID(0, 0), first);
        assertNotEquals(WindowsBackend.SYSTEM_TRACE_CONTROL_GUID, first);
        // a new random GUID per start
        new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("10.0")).startSession(c);
        assertNotEquals(first, Guids.get(rec.last("StartTraceW").props(), EtwLayout.WNODE_GUID));
    }

    @Test
    void beforeWindows8TheNtKernelLoggerRunsAlongsideOnTheSameClock() throws EtwException {
        WindowsBackend win7 = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("6.1.7601"));
        win7.startSession(config().modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER).kernelFlags(EnumSet.of(KernelFlag.CSWITCH, KernelFlag.DISK_IO)).build());
        List<RecordingNativeEtw.Call> starts = rec.calls("StartTraceW");
        assertEquals(2, starts.size());
        ByteBuffer main = starts.get(0).props();
        ByteBuffer kernel = starts.get(1).props();
        assertEquals("jetw", starts.get(0).name);
        assertEquals(0, main.getInt(EtwLayout.ETP_ENABLE_FLAGS));
        assertEquals(0, main.getInt(EtwLayout.ETP_LOG_FILE_MODE) & 0x02000000, "no system-logger mode before Windows 8");
        assertEquals(new UUID(0, 0), Guids.get(main, EtwLayout.WNODE_GUID));

        assertEquals("NT Kernel Logger", starts.get(1).name);
        assertEquals(UUID.fromString("9e814aad-3204-11d2-9a82-006008a86939"), Guids.get(kernel, EtwLayout.WNODE_GUID));
        assertEquals(0x10 | 0x100, kernel.getInt(EtwLayout.ETP_ENABLE_FLAGS));
        assertEquals(1, kernel.getInt(EtwLayout.WNODE_CLIENT_CONTEXT));
        assertEquals(main.getInt(EtwLayout.WNODE_CLIENT_CONTEXT), kernel.getInt(EtwLayout.WNODE_CLIENT_CONTEXT), "same clock");
        assertEquals("C:\\traces\\jetw-kernel.etl", RecordingNativeEtw.wideAt(kernel, kernel.getInt(EtwLayout.X64.etpLogFileNameOffset())));

        rec.calls.clear();
        win7.stopSession("jetw");
        assertEquals(List.of("ControlTraceW:1:jetw", "ControlTraceW:1:NT Kernel Logger"), sequence());
        assertEquals(WindowsBackend.SYSTEM_TRACE_CONTROL_GUID, Guids.get(rec.last("ControlTraceW").props(), EtwLayout.WNODE_GUID));
    }

    @Test
    void beforeWindows8AFailedKernelLoggerStopsTheMainSession() {
        rec.script("StartTraceW", 0, Win32Error.ACCESS_DENIED);
        WindowsBackend win7 = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("6.1"));
        EtwException e = assertThrows(EtwException.class,
                () -> win7.startSession(config().modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER).kernelFlags(EnumSet.of(KernelFlag.PROCESS)).build()));
        assertTrue(e.getMessage().contains("NT Kernel Logger"), e.getMessage());
        assertTrue(e.getMessage().contains("kernel events need an elevated Administrator"), e.getMessage());
        assertEquals("ControlTraceW:1:jetw", sequence().get(sequence().size() - 1));
    }

    static SessionConfig profileConfig() {
        return config().modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER)
                .kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.PROFILE)).build();
    }

    @Test
    void kernelProfileEnablesSeSystemProfilePrivilegeBeforeStartTraceAsPerfViewDoes() throws EtwException {
        backend.startSession(profileConfig());
        assertEquals(List.of("OpenProcessToken:null", "LookupPrivilegeValueW:SeSystemProfilePrivilege",
                "AdjustTokenPrivileges:null", "CloseHandle:null", "StartTraceW:jetw"), sequence().subList(0, 5));
        assertTrue(rec.profilePrivilegeEnabled);
        assertEquals(0x20 | 0x8, rec.last("OpenProcessToken").flags, "TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY");
    }

    @Test
    void kernelProfileIsRefusedWithOneClearLineWhenTheTokenLacksThePrivilege() {
        rec.script("AdjustTokenPrivileges", Win32Error.NOT_ALL_ASSIGNED); // TRUE, but not assigned: not elevated
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(profileConfig()));
        assertEquals("AdjustTokenPrivileges", e.function());
        assertEquals(Win32Error.NOT_ALL_ASSIGNED, e.code());
        assertEquals("AdjustTokenPrivileges failed: ERROR_NOT_ALL_ASSIGNED (1300): kernel=profile needs"
                + " SeSystemProfilePrivilege, which this process's token does not hold: run elevated (as administrator)"
                + " or drop profile from kernel=", e.getMessage());
        assertTrue(rec.calls("StartTraceW").isEmpty(), "no session is started");
        assertEquals(1, rec.calls("CloseHandle").size(), "the token is closed");
    }

    @Test
    void aFailedTokenOpenIsReportedWithItsCode() {
        rec.script("OpenProcessToken", Win32Error.ACCESS_DENIED);
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(profileConfig()));
        assertEquals("OpenProcessToken", e.function());
        assertEquals(Win32Error.ACCESS_DENIED, e.code());
        assertTrue(rec.calls("CloseHandle").isEmpty(), "nothing was opened");
    }

    @Test
    void otherKernelFlagsNeedNoPrivilegeCall() throws EtwException {
        backend.startSession(config().modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER)
                .kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.CSWITCH)).build());
        assertTrue(rec.calls("OpenProcessToken").isEmpty());
    }

    @Test
    void withoutKernelFlagsThereIsNoSecondSession() throws EtwException {
        new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("6.1")).startSession(config().build());
        assertEquals(1, rec.calls("StartTraceW").size());
        assertEquals(0, rec.last("StartTraceW").props().getInt(EtwLayout.ETP_LOG_FILE_MODE) & 0x02000000);
    }

    @Test
    void kernelFileNames() {
        assertEquals("C:\\t\\a-kernel.etl", WindowsBackend.kernelFileName("C:\\t\\a.etl"));
        assertEquals("C:\\t.d\\a-kernel", WindowsBackend.kernelFileName("C:\\t.d\\a"));
        assertNull(WindowsBackend.kernelFileName(null));
    }

    // ------------------------------------------------------------ enabling

    @Test
    void enableUsesEnableTraceEx2WithAllClassicFlagsFromWindows7() throws EtwException {
        backend.startSession(config().build());
        long id = rec.nextSessionId - 1;
        backend.enableProvider("jetw", CONTROL, 4, 0);
        RecordingNativeEtw.Call e = rec.last("EnableTraceEx2");
        assertEquals(id, e.traceId);
        assertEquals(CONTROL, e.guid);
        assertEquals(EtwConstants.EVENT_CONTROL_CODE_ENABLE_PROVIDER, e.controlCode);
        assertEquals(4, e.level);
        assertEquals(0xFFFFFFFFL, e.matchAny);
        assertEquals(0L, e.matchAll);
        assertTrue(e.timeout > 0, "synchronous: waits for the callback");
        backend.enableProvider("jetw", CONTROL, 5, 0x5);
        assertEquals(0x5L, rec.last("EnableTraceEx2").matchAny);
        backend.disableProvider("jetw", CONTROL);
        assertEquals(EtwConstants.EVENT_CONTROL_CODE_DISABLE_PROVIDER, rec.last("EnableTraceEx2").controlCode);
        assertTrue(rec.calls("EnableTrace").isEmpty());
    }

    @Test
    void enableFallsBackToEnableTraceBeforeWindows7() throws EtwException {
        rec = new RecordingNativeEtw(EtwLayout.X86);
        WindowsBackend vista = new WindowsBackend(rec, EtwLayout.X86, WindowsVersion.parse("6.0"));
        vista.startSession(config().build());
        vista.enableProvider("jetw", CONTROL, 3, 0x7);
        RecordingNativeEtw.Call e = rec.last("EnableTrace");
        assertEquals(1, e.enable);
        assertEquals(0x7, e.flags);
        assertEquals(3, e.level);
        assertEquals(CONTROL, e.guid);
        assertEquals(rec.nextSessionId - 1, e.traceId);
        vista.disableProvider("jetw", CONTROL);
        assertEquals(0, rec.last("EnableTrace").enable);
        assertTrue(rec.calls("EnableTraceEx2").isEmpty());
    }

    @Test
    void enableIntoASessionJetwDidNotStartQueriesItsId() throws EtwException {
        rec.answer("WPR").historicalContext = 0x31;
        backend.enableProvider("WPR", CONTROL, 5, 0);
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_QUERY, rec.last("ControlTraceW").controlCode);
        assertEquals(0x31L, rec.last("EnableTraceEx2").traceId);
    }

    @Test
    void enableFailuresNameProviderAndSession() throws EtwException {
        backend.startSession(config().build());
        rec.script("EnableTraceEx2", Win32Error.NO_SYSTEM_RESOURCES);
        EtwException e = assertThrows(EtwException.class, () -> backend.enableProvider("jetw", CONTROL, 5, 0));
        assertEquals("EnableTraceEx2", e.function());
        assertTrue(e.getMessage().contains(CONTROL.toString()) && e.getMessage().contains("'jetw'"), e.getMessage());
    }

    @Test
    void enablingAnUnregisteredProviderOnOldSystemsExplainsIt() throws EtwException {
        rec = new RecordingNativeEtw(EtwLayout.X86);
        WindowsBackend xp = new WindowsBackend(rec, EtwLayout.X86, WindowsVersion.parse("5.1"));
        xp.startSession(config().build());
        rec.script("EnableTrace", Win32Error.WMI_GUID_NOT_FOUND);
        EtwException e = assertThrows(EtwException.class, () -> xp.enableProvider("jetw", CONTROL, 5, 0));
        assertEquals("EnableTrace", e.function());
        assertTrue(e.getMessage().contains("ERROR_WMI_GUID_NOT_FOUND") && e.getMessage().contains("not registered"), e.getMessage());
    }

    // ------------------------------------------------------------ private sessions

    @Test
    void aPrivateSessionNeedsARegisteredProviderAndUsesItsControlGuid() throws EtwException {
        SessionConfig priv = config().modes(LogFileMode.PRIVATE_IN_PROC).build();
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(priv));
        assertTrue(e.getMessage().contains("register the provider before"), e.getMessage());
        assertTrue(rec.calls("StartTraceW").isEmpty());

        backend.registerProvider(CONTROL, Collections.singletonList(CLASS), new CountingListener());
        backend.startSession(priv);
        assertEquals(CONTROL, Guids.get(rec.last("StartTraceW").props(), EtwLayout.WNODE_GUID));
        backend.stopSession("jetw");
        ByteBuffer stop = rec.last("ControlTraceW").props();
        assertEquals(0x20800, stop.getInt(EtwLayout.ETP_LOG_FILE_MODE), "control of a private session carries LogFileMode");
        assertEquals(CONTROL, Guids.get(stop, EtwLayout.WNODE_GUID));
    }

    @Test
    void registeringWithoutEventClassesIsRefused() {
        EtwException e = assertThrows(EtwException.class,
                () -> backend.registerProvider(CONTROL, Collections.emptyList(), new CountingListener()));
        assertEquals(Win32Error.INVALID_PARAMETER, e.code());
        assertFalse(rec.calls.stream().anyMatch(c -> c.function.equals("RegisterTraceGuidsW")));
    }

    static final class CountingListener implements dev.jetw.etw.EnableListener {
        int enables;
        int disables;

        @Override
        public void onEnable(int level, int enableFlags, long loggerHandle) {
            enables++;
        }

        @Override
        public void onDisable() {
            disables++;
        }
    }
}
