package dev.jetw.etw.portable;

import dev.jetw.etl.TruncationMark;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.ClockType;
import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.OrphanPolicy;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;
import dev.jetw.etl.EtlFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Session control, providers, records and statistics of the portable engine (sequential mode). */
class SessionEngineTest {

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    private SessionConfig.Builder config(String name, Path file) {
        return SessionConfig.builder().sessionName(name).logFile(file).flushTimerSeconds(0);
    }

    @Test
    void sequentialFileHoldsEveryEventWithHeaderFacts() throws Exception {
        String name = TestSupport.uniqueName("seq");
        Path file = dir.resolve("seq.etl");
        etw.startSession(config(name, file).bufferSizeKb(4).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int n = 1000;
        for (int i = 0; i < n; i++) {
            assertTrue(TestSupport.emit(p, s, 7, i, i % 50));
        }
        SessionStats st = etw.stopSession(name);
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        List<EtlLayoutCheck.Event> ev = f.events();
        assertEquals(n, ev.size());
        for (int i = 0; i < n; i++) {
            EtlLayoutCheck.Event e = ev.get(i);
            assertEquals(0x15, e.headerType);
            assertEquals(i, e.payloadInt(4));
            assertEquals(8 + i % 50, e.payload.length);
            assertEquals(p.eventClassGuids().get(0), e.classGuid);
            assertEquals(ProcessHandle.current().pid(), e.processId);
            assertEquals((int) Thread.currentThread().getId(), e.threadId);
            assertNotEquals(0, e.instanceId);
            if (i > 0) {
                assertTrue(e.timeStamp >= ev.get(i - 1).timeStamp);
            }
        }
        // Sequence numbers 1.. in file order.
        for (int i = 0; i < f.buffers.size(); i++) {
            assertEquals(i + 1, f.buffers.get(i).sequence);
        }
        assertEquals(f.buffers.size() + 1, st.buffersWritten() + 1);
        assertEquals(0, st.eventsLost());
        assertEquals(name, f.loggerName);
        assertEquals(file.toAbsolutePath().toString(), f.logFileName);
        assertArrayEquals(new byte[] {10, 0, 1, 5}, f.versionBytes);
        assertEquals(ProcessHandle.current().pid(), f.headerProcessId);
        assertEquals(1, f.clockType);
        assertEquals(10_000_000L, f.perfFreq);
        assertEquals(-TimeZone.getDefault().getRawOffset() / 60000, f.timeZoneBias);
        assertTrue(f.endTime >= f.startTime && f.startTime > f.bootTime, "StartTime/EndTime/BootTime");
        long now = System.currentTimeMillis() * 10_000L + EtlFormat.FILETIME_UNIX_EPOCH;
        assertTrue(Math.abs(now - f.startTime) < 600L * 10_000_000L, "StartTime is now");
        // Event times convert to FILETIMEs within the session (etl-format.md §8).
        long first = f.startTime + (ev.get(0).timeStamp - f.systemTime) * 10_000_000L / f.perfFreq;
        assertTrue(first >= f.startTime && first <= f.endTime);
        assertEquals(LogFileMode.SEQUENTIAL.bits(), f.logFileMode);
    }

    private static void assertArrayEquals(byte[] a, byte[] b) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(a, b);
    }

    @Test
    void plainEventsAreFullHeaderRecordsAndInstanceEventsCarryParent() throws Exception {
        String name = TestSupport.uniqueName("types");
        Path file = dir.resolve("types.etl");
        etw.startSession(config(name, file).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        s.payload().clear();
        s.payload().putInt(5);
        assertTrue(p.write(s, EventType.DC_START, 4, 1, 0, -1, 0)); // plain event of class 1
        int parent = p.newInstanceId(s, 0);
        int child = p.newInstanceId(s, 0);
        s.payload().clear();
        assertTrue(p.write(s, EventType.CHECKPOINT, 5, 0, child, 0, parent));
        etw.stopSession(name);
        List<EtlLayoutCheck.Event> ev = EtlLayoutCheck.read(file).events();
        assertEquals(2, ev.size());
        assertEquals(0x14, ev.get(0).headerType);
        assertEquals(EventType.DC_START, ev.get(0).type);
        assertEquals(4, ev.get(0).level);
        assertEquals(p.eventClassGuids().get(1), ev.get(0).classGuid);
        assertEquals(4, ev.get(0).payload.length);
        assertEquals(0x15, ev.get(1).headerType);
        assertEquals(child, ev.get(1).instanceId);
        assertEquals(parent, ev.get(1).parentInstanceId);
        assertEquals(p.eventClassGuids().get(0), ev.get(1).parentGuid);
        assertEquals(0, ev.get(1).payload.length);
    }

    @Test
    void systemClockStampsFiletimes() throws Exception {
        String name = TestSupport.uniqueName("sysclock");
        Path file = dir.resolve("sys.etl");
        etw.startSession(config(name, file).clock(ClockType.SYSTEM).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        TestSupport.emit(p, s, 0, 0, 0);
        etw.stopSession(name);
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertEquals(2, f.clockType);
        assertEquals(f.startTime, f.systemTime);
        long ts = f.events().get(0).timeStamp;
        assertTrue(ts >= f.startTime && ts <= f.endTime, "event FILETIME within the session");
    }

    @Test
    void cycleClockIsQpcWithANotice() throws Exception {
        String name = TestSupport.uniqueName("cycle");
        etw.startSession(config(name, dir.resolve("c.etl")).clock(ClockType.CYCLE).build());
        assertTrue(etw.notices(name).get(0).contains("clock=cycle"));
        etw.stopSession(name);
        assertEquals(1, EtlLayoutCheck.read(dir.resolve("c.etl")).clockType);
    }

    /** The 64th session of a process is refused with ETW's code and the portable backend's own remedy. */
    @Test
    void beyondTheLoggerLimitTheRemedyIsThePortableBackends() throws Exception {
        List<String> started = new ArrayList<>();
        try {
            EtwException e = null;
            for (int i = 0; i < 64 && e == null; i++) {
                String name = TestSupport.uniqueName("limit" + i);
                try {
                    etw.startSession(SessionConfig.builder().sessionName(name).logFile(dir.resolve(name + ".etl"))
                            .modes(LogFileMode.BUFFERING).minimumBuffers(2).maximumBuffers(2).build());
                    started.add(name);
                } catch (EtwException refused) {
                    e = refused;
                }
            }
            assertTrue(e != null, "no more than 63 loggers, as ETW's default");
            assertEquals(Win32Error.NO_SYSTEM_RESOURCES, e.code());
            assertTrue(e.getMessage().contains("Stop one of this JVM's sessions"), e.getMessage());
            assertFalse(e.getMessage().contains("EtwMaxLoggers") || e.getMessage().contains("logman"), e.getMessage());
        } finally {
            for (String name : started) {
                etw.stopSession(name);
            }
        }
    }

    @Test
    void sessionNamesAreUniqueCaseInsensitivelyWithOrphanPolicies() throws Exception {
        String name = TestSupport.uniqueName("Names");
        etw.startSession(config(name, dir.resolve("a.etl")).build());
        try {
            EtwException e = assertThrows(EtwException.class, () -> etw.startSession(
                    config(name.toLowerCase(), dir.resolve("b.etl")).orphanPolicy(OrphanPolicy.FAIL).build()));
            assertEquals(Win32Error.ALREADY_EXISTS, e.code());
            // The portable session lives in this JVM: ETW's remedy (logman stop -ets) would send the user astray.
            assertTrue(e.getMessage().contains("stop that session there"), e.getMessage());
            assertFalse(e.getMessage().contains("logman"), e.getMessage());
            PortableSession before = PortableBackend.session(name);
            etw.startSession(config(name.toUpperCase(), dir.resolve("b.etl")).orphanPolicy(OrphanPolicy.REUSE).build());
            assertSame(before, PortableBackend.session(name));
            assertFalse(Files.exists(dir.resolve("b.etl")));
            etw.startSession(config(name.toUpperCase(), dir.resolve("c.etl")).orphanPolicy(OrphanPolicy.RESTART).build());
            assertNotEquals(before, PortableBackend.session(name));
            assertTrue(before.closed);
            EtlLayoutCheck.read(dir.resolve("a.etl")); // the old session was stopped and finalized
            assertEquals(1, etw.listSessions().stream().filter(n -> n.equalsIgnoreCase(name)).count());
        } finally {
            etw.stopSession(name);
        }
        assertNull(etw.stopSession(name));
        assertEquals(Win32Error.WMI_INSTANCE_NOT_FOUND,
                assertThrows(EtwException.class, () -> etw.querySession(name)).code());
    }

    @Test
    void aSecondWriterOfTheSameFileIsRefused() throws Exception {
        String a = TestSupport.uniqueName("lockA");
        String b = TestSupport.uniqueName("lockB");
        Path file = dir.resolve("shared.etl");
        etw.startSession(config(a, file).build());
        try {
            EtwException e = assertThrows(EtwException.class,
                    () -> etw.startSession(config(b, dir.resolve(".").resolve("shared.etl")).build()));
            assertEquals(Win32Error.SHARING_VIOLATION, e.code());
            assertTrue(e.getMessage().contains("shared.etl"), e.getMessage());
            assertNull(PortableBackend.session(b));
        } finally {
            etw.stopSession(a);
        }
        etw.startSession(config(b, file).overwrite(true).build()); // free again after stop
        etw.stopSession(b);
    }

    @Test
    void aMissingFolderIsBadPathname() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("gone"));
        SessionConfig c = config(TestSupport.uniqueName("nofolder"), folder.resolve("x.etl")).build();
        Files.delete(folder); // after validation, as when the folder vanishes before the start
        EtwException e = assertThrows(EtwException.class, () -> etw.startSession(c));
        assertEquals(Win32Error.BAD_PATHNAME, e.code());
        assertTrue(e.getMessage().contains("gone"), e.getMessage());
    }

    /** Refused by the configuration's validation, or else by the engine with {@code code}. */
    private void assertRefused(java.util.function.Supplier<SessionConfig.Builder> b, int code) {
        SessionConfig c;
        try {
            c = b.get().build();
        } catch (dev.jetw.etw.ConfigException e) {
            return;
        }
        EtwException e = assertThrows(EtwException.class, () -> etw.startSession(c));
        assertEquals(code, e.code(), e.getMessage());
    }

    @Test
    void invalidModeCombinationsAreRefusedAndAppendIsNotSupported() throws Exception {
        String name = TestSupport.uniqueName("bad");
        assertRefused(() -> config(name, dir.resolve("c.etl")).modes(LogFileMode.CIRCULAR), Win32Error.INVALID_PARAMETER);
        assertRefused(() -> config(name, dir.resolve("n.etl")).modes(LogFileMode.NEWFILE).maximumFileSizeMb(1),
                Win32Error.INVALID_PARAMETER);
        assertRefused(() -> config(name, null), Win32Error.INVALID_PARAMETER);
        assertRefused(() -> config(name, dir.resolve("sc.etl")).modes(LogFileMode.SEQUENTIAL, LogFileMode.CIRCULAR)
                .maximumFileSizeMb(1), Win32Error.INVALID_PARAMETER);
        EtwException e = assertThrows(EtwException.class, () -> etw.startSession(
                config(name, dir.resolve("a.etl")).modes(LogFileMode.APPEND).clock(ClockType.SYSTEM).build()));
        assertEquals(Win32Error.NOT_SUPPORTED, e.code());
        assertTrue(e.getMessage().contains("append"));
        assertNull(PortableBackend.session(name));
    }

    @Test
    void providersGetEnableAndDisableAndStopDisablesThemFirst() throws Exception {
        String name = TestSupport.uniqueName("prov");
        etw.startSession(config(name, dir.resolve("p.etl")).build());
        List<String> calls = new ArrayList<>();
        UUID control = UUID.randomUUID();
        ProviderBackend pb = etw.registerProvider(control, TestSupport.classes(), new EnableListener() {
            @Override
            public void onEnable(int level, int flags, long handle) {
                calls.add("enable " + level + " " + flags + " " + (handle != 0));
            }

            @Override
            public void onDisable() {
                calls.add("disable");
            }
        });
        EventScratch s = pb.newScratch();
        assertEquals(Win32Error.INVALID_HANDLE, pb.write(s, 1, 4, 0, 0, 1, -1, 0));
        etw.enableProvider(name, control, 4, 0x12);
        assertEquals(Arrays.asList("enable 4 18 true"), calls);
        assertEquals(Win32Error.SUCCESS, pb.write(s, 1, 4, 0, 0, 1, -1, 0));
        etw.disableProvider(name, control);
        assertEquals("disable", calls.get(1));
        assertEquals(Win32Error.INVALID_HANDLE, pb.write(s, 1, 4, 0, 0, 2, -1, 0));
        etw.enableProvider(name, control, 5, 0);
        assertEquals(Win32Error.SUCCESS, pb.write(s, 1, 4, 0, 0, 3, -1, 0));
        etw.stopSession(name);
        assertEquals("disable", calls.get(3));
        assertEquals(Win32Error.INVALID_HANDLE, pb.write(s, 1, 4, 0, 0, 4, -1, 0));
        List<EtlLayoutCheck.Event> ev = EtlLayoutCheck.read(dir.resolve("p.etl")).events();
        assertEquals(2, ev.size());
        assertEquals(1, ev.get(0).instanceId);
        assertEquals(3, ev.get(1).instanceId);
        pb.unregister();
    }

    @Test
    void aProviderRegisteredAfterEnableStartsEnabled() throws Exception {
        String name = TestSupport.uniqueName("late");
        etw.startSession(config(name, dir.resolve("l.etl")).build());
        UUID control = UUID.randomUUID();
        etw.enableProvider(name, control, 3, 0);
        ClassicProvider p = ClassicProvider.register(etw, control, TestSupport.classes());
        assertTrue(p.isEnabled(3));
        assertFalse(p.isEnabled(4));
        etw.stopSession(name);
        assertFalse(p.isEnabled());
    }

    @Test
    void oversizedEventsAreMoreDataAndTheLimitIsTheBufferLess0x48() throws Exception {
        String name = TestSupport.uniqueName("size");
        etw.startSession(config(name, dir.resolve("s.etl")).bufferSizeKb(4).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        ProviderBackend raw = ((PortableProvider) providerBackendOf(p));
        int max = p.maxPayloadBytes();
        assertEquals(4096 - 0x48 - 0x48, max);
        EventScratch s = p.newScratch();
        s.payload(p.maxPayloadBytes() + 100);
        s.payload().position(p.maxPayloadBytes());
        assertEquals(Win32Error.SUCCESS, raw.write(s, 1, 4, 0, 0, 1, -1, 0));
        s.payload().position(p.maxPayloadBytes() + 1);
        assertEquals(Win32Error.MORE_DATA, raw.write(s, 1, 4, 0, 0, 1, -1, 0));
        s.payload().position(p.maxPayloadBytes() + 100);
        assertTrue(p.write(s, 1, 4, 0, 2, -1, 0)); // ClassicProvider truncates
        etw.stopSession(name);
        List<EtlLayoutCheck.Event> ev = EtlLayoutCheck.read(dir.resolve("s.etl")).events();
        assertEquals(2, ev.size());
        assertEquals(max, ev.get(1).payload.length);
        assertEquals(0, ev.get(1).version, "a cut event keeps the MOF's EventVersion");
        assertTrue(TruncationMark.endsPayload(ev.get(1).payload), "marked in the payload instead");
    }

    private static ProviderBackend providerBackendOf(ClassicProvider p) throws Exception {
        java.lang.reflect.Field f = ClassicProvider.class.getDeclaredField("backend");
        f.setAccessible(true);
        return (ProviderBackend) f.get(p);
    }

    @Test
    void queryReportsBuffersAndTheLoggerThread() throws Exception {
        String name = TestSupport.uniqueName("query");
        etw.startSession(config(name, dir.resolve("q.etl")).minimumBuffers(3).maximumBuffers(10).build());
        SessionStats st = etw.querySession(name);
        assertEquals(3, st.numberOfBuffers());
        assertEquals(3, st.freeBuffers());
        Thread logger = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("jetw-logger-" + name)).findFirst().orElseThrow();
        assertEquals(logger.getId(), st.loggerThreadId());
        assertTrue(logger.isDaemon());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        TestSupport.emit(p, p.newScratch(), 0, 0, 0);
        st = etw.querySession(name);
        assertEquals(2, st.freeBuffers()); // one held by the writing thread
        st = etw.flushSession(name);
        assertEquals(1, st.buffersWritten());
        assertEquals(3, st.freeBuffers());
        SessionStats updated = etw.updateSession(
                config(name, dir.resolve("q.etl")).minimumBuffers(3).maximumBuffers(20).flushTimerSeconds(5).build());
        assertEquals(3, updated.numberOfBuffers());
        assertEquals(20, PortableBackend.session(name).pool.maximum());
        assertEquals(5, PortableBackend.session(name).flushTimerSeconds);
        EtwException e = assertThrows(EtwException.class, () -> etw.updateSession(
                config(name, dir.resolve("other.etl")).minimumBuffers(3).build()));
        assertEquals(Win32Error.NOT_SUPPORTED, e.code());
        assertTrue(e.getMessage().contains("other.etl"));
        etw.stopSession(name);
    }

    @Test
    void etwBackendsLoadsThePortableBackendByName() {
        dev.jetw.etw.EtwBackend b = dev.jetw.etw.EtwBackends.create("portable");
        assertTrue(b instanceof PortableBackend);
        assertEquals("portable", b.name());
    }

    @Test
    void kernelFlagsWithoutALinuxEquivalentGetOneNoticeEach() throws Exception {
        SessionConfig c = config("k", dir.resolve("k.etl")).modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER)
                .kernelFlags(java.util.EnumSet.of(dev.jetw.etw.KernelFlag.PROCESS, dev.jetw.etw.KernelFlag.NETWORK_TCPIP,
                        dev.jetw.etw.KernelFlag.MEMORY_PAGE_FAULTS, dev.jetw.etw.KernelFlag.DISK_FILE_IO,
                        dev.jetw.etw.KernelFlag.FILE_IO, dev.jetw.etw.KernelFlag.FILE_IO_INIT)).build();
        List<String> linux = new ArrayList<>();
        for (dev.jetw.etl.SessionNotice n : SessionRules.kernelNotices(c, true)) {
            assertEquals(dev.jetw.etl.SessionNotice.PROBLEM, n.kind());
            linux.add(n.text());
        }
        // file_io and file_io_init are collected (syscall tracepoints): no notice; disk_file_io's names come with them.
        assertEquals(3, linux.size(), linux.toString());
        assertTrue(linux.get(0).startsWith("kernel=disk_file_io: not recorded on Linux as a flag of its own"),
                linux.toString());
        assertTrue(linux.get(1).startsWith("kernel=memory_page_faults: not recorded on Linux"), linux.toString());
        assertTrue(linux.get(2).startsWith("kernel=network_tcpip: not recorded on Linux"), linux.toString());
        List<dev.jetw.etl.SessionNotice> elsewhere = SessionRules.kernelNotices(c, false);
        assertEquals(1, elsewhere.size());
        assertTrue(elsewhere.get(0).text().contains("collects kernel events only on Linux"), elsewhere.toString());
        SessionConfig loggerOnly = config("k", dir.resolve("k.etl")).modes(LogFileMode.SEQUENTIAL,
                LogFileMode.SYSTEM_LOGGER).build();
        assertEquals(dev.jetw.etl.SessionNotice.NOTE, SessionRules.kernelNotices(loggerOnly, true).get(0).kind());
    }

    @Test
    void aSessionWithKernelFlagsStartsWhereKernelEventsCannotBeCollected() throws Exception {
        // A tracefs root that is not one: as on a host without tracefs, or a JVM that is not root.
        String name = TestSupport.uniqueName("nokernel");
        Path file = dir.resolve("nokernel.etl");
        System.setProperty("jetw.tracefs", dir.resolve("no-tracefs").toString());
        try {
            etw.startSession(config(name, file).modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER)
                    .kernelFlags(java.util.EnumSet.of(dev.jetw.etw.KernelFlag.CSWITCH)).build());
        } finally {
            System.clearProperty("jetw.tracefs");
        }
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        assertTrue(TestSupport.emit(p, p.newScratch(), 1, 1, 0), "jetw's events are written");
        List<String> notices = etw.notices(name);
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).startsWith("kernel=cswitch: no kernel events: "), notices.get(0));
        SessionStats st = etw.stopSession(name);
        p.close();
        assertEquals(0, st.eventsLost());
        List<String> problems = new ArrayList<>();
        int events = 0;
        try (dev.jetw.etl.EtlReader r = dev.jetw.etl.EtlReader.open(file)) {
            for (dev.jetw.etl.EtlRecord rec = r.next(); rec != null; rec = r.next()) {
                dev.jetw.etl.SessionNotice n = dev.jetw.etl.SessionNotice.decode(rec);
                if (n != null && n.isProblem()) {
                    problems.add(n.text());
                    assertEquals(0, rec.threadId());
                } else if (n == null && !rec.isLogfileHeader()) {
                    events++; // the provider's: not the header, not the session's own notices (its writer among them)
                }
            }
        }
        assertEquals(notices, problems, "the trace carries the problem");
        assertEquals(1, events);
    }
}
