package dev.jetw.etw.windows;

import dev.jetw.etw.ClockType;
import dev.jetw.etw.ConfigException;
import dev.jetw.etw.EtwException;
import dev.jetw.etl.Guids;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The EVENT_TRACE_PROPERTIES bytes passed to StartTraceW and ControlTraceW, offset by offset. */
class PropertiesBufferTest {

    static final String FILE = "C:\\traces\\jetw.etl";
    static final int TOTAL = 120 + 2 * 1024 * 2 + 256;

    /** Layout plus the SDK offsets of LogFileNameOffset and LoggerNameOffset, written out independently of EtwLayout. */
    static Stream<Arguments> layouts() {
        return Stream.of(Arguments.of(EtwLayout.X64, 112, 116), Arguments.of(EtwLayout.X86, 108, 112));
    }

    static SessionConfig circular() {
        return SessionConfig.builder().sessionName("jetw-test").logFile(Paths.get(FILE)).bufferSizeKb(128)
                .minimumBuffers(4).maximumBuffers(64).maximumFileSizeMb(256).modes(LogFileMode.CIRCULAR)
                .flushTimerSeconds(2).clock(ClockType.SYSTEM).build();
    }

    static byte[] utf16z(String s) {
        byte[] b = (s + "\0").getBytes(StandardCharsets.UTF_16LE);
        return b;
    }

    static byte[] slice(ByteBuffer b, int offset, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = b.get(offset + i);
        }
        return out;
    }

    static void assertZero(ByteBuffer b, int from, int to, String what) {
        for (int i = from; i < to; i++) {
            assertEquals(0, b.get(i), what + ": byte " + i + " not zero");
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void startPropertiesAreExactAtEveryOffset(EtwLayout layout, int logFileNameOffsetAt, int loggerNameOffsetAt) throws EtwException {
        RecordingNativeEtw rec = new RecordingNativeEtw(layout);
        new WindowsBackend(rec, layout, WindowsVersion.parse("10.0")).startSession(circular());
        RecordingNativeEtw.Call start = rec.last("StartTraceW");
        assertEquals("jetw-test", start.name);
        ByteBuffer b = start.props();
        assertEquals(TOTAL, start.properties.length);
        assertEquals(TOTAL, b.getInt(0), "Wnode.BufferSize = whole allocation");
        assertEquals(0, b.getInt(4), "ProviderId");
        assertEquals(0L, b.getLong(8), "HistoricalContext");
        assertEquals(0L, b.getLong(16), "TimeStamp");
        assertEquals(new UUID(0, 0), Guids.get(b, 24), "Guid zero: ETW assigns one");
        assertEquals(2, b.getInt(40), "ClientContext = system time");
        assertEquals(0x00020000, b.getInt(44), "Flags = WNODE_FLAG_TRACED_GUID");
        assertEquals(128, b.getInt(48), "BufferSize KB");
        assertEquals(4, b.getInt(52), "MinimumBuffers");
        assertEquals(64, b.getInt(56), "MaximumBuffers");
        assertEquals(256, b.getInt(60), "MaximumFileSize");
        assertEquals(0x2, b.getInt(64), "LogFileMode = CIRCULAR");
        assertEquals(2, b.getInt(68), "FlushTimer");
        assertEquals(0, b.getInt(72), "EnableFlags");
        assertZero(b, 76, logFileNameOffsetAt, "AgeLimit and outputs");
        assertEquals(120 + 2048, b.getInt(logFileNameOffsetAt), "LogFileNameOffset");
        assertEquals(120, b.getInt(loggerNameOffsetAt), "LoggerNameOffset");
        assertZero(b, loggerNameOffsetAt + 4, 120, "tail padding");
        byte[] name = utf16z("jetw-test");
        assertArrayEquals(name, slice(b, 120, name.length), "session name UTF-16LE + NUL");
        assertZero(b, 120 + name.length, 2168, "rest of the session-name area");
        byte[] file = utf16z(FILE);
        assertArrayEquals(file, slice(b, 2168, file.length), "log file UTF-16LE + NUL");
        assertZero(b, 2168 + file.length, TOTAL, "rest of the allocation");
        rec.assertNoViolations();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void controlPropertiesAreFreshAndZeroedExceptTheDocumentedMembers(EtwLayout layout, int logFileNameOffsetAt,
                                                                      int loggerNameOffsetAt) throws EtwException {
        RecordingNativeEtw rec = new RecordingNativeEtw(layout);
        WindowsBackend backend = new WindowsBackend(rec, layout, WindowsVersion.parse("10.0"));
        backend.flushSession("someone-else");
        RecordingNativeEtw.Call flush = rec.last("ControlTraceW");
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_FLUSH, flush.controlCode);
        assertEquals(0L, flush.traceId, "addressed by name, handle 0");
        assertEquals("someone-else", flush.name);
        ByteBuffer b = flush.props();
        assertEquals(TOTAL, b.getInt(0));
        assertEquals(0x00020000, b.getInt(44));
        assertEquals(120 + 2048, b.getInt(logFileNameOffsetAt));
        assertEquals(120, b.getInt(loggerNameOffsetAt));
        assertZero(b, 4, 44, "Wnode except BufferSize/Flags (Guid zero)");
        assertZero(b, 48, logFileNameOffsetAt, "properties");
        assertZero(b, 120, TOTAL, "name areas");
        rec.assertNoViolations();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void realTimeSessionWithoutFileHasLogFileNameOffsetZero(EtwLayout layout, int logFileNameOffsetAt, int loggerNameOffsetAt)
            throws EtwException {
        RecordingNativeEtw rec = new RecordingNativeEtw(layout);
        SessionConfig rt = SessionConfig.builder().sessionName("rt").modes(LogFileMode.REAL_TIME)
                .realTimeWithoutConsumer(true).build();
        new WindowsBackend(rec, layout, WindowsVersion.parse("10.0")).startSession(rt);
        ByteBuffer b = rec.last("StartTraceW").props();
        assertEquals(0, b.getInt(logFileNameOffsetAt));
        assertEquals(120, b.getInt(loggerNameOffsetAt));
        assertEquals(0x100, b.getInt(64));
        assertEquals(1, b.getInt(40), "QPC is the default clock");
        rec.assertNoViolations();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void nonAsciiNamesAreUtf16LittleEndian(EtwLayout layout, int logFileNameOffsetAt, int loggerNameOffsetAt) throws EtwException {
        RecordingNativeEtw rec = new RecordingNativeEtw(layout);
        String file = "C:\\Spuren\\\u00fcber-\u6f22.etl";
        new WindowsBackend(rec, layout, WindowsVersion.parse("10.0")).startSession(
                SessionConfig.builder().sessionName("j\u00e9tw").logFile(Paths.get(file)).build());
        ByteBuffer b = rec.last("StartTraceW").props();
        assertArrayEquals(new byte[] {'j', 0, (byte) 0xE9, 0, 't', 0, 'w', 0, 0, 0}, slice(b, 120, 10));
        byte[] f = utf16z(file);
        assertArrayEquals(f, slice(b, b.getInt(logFileNameOffsetAt), f.length));
        assertEquals("j\u00e9tw", rec.last("StartTraceW").name, "InstanceName is UTF-16LE too");
        rec.assertNoViolations();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aNameThatDoesNotFitIsRefusedBeforeStartTrace(EtwLayout layout, int a, int b) {
        RecordingNativeEtw rec = new RecordingNativeEtw(layout);
        StringBuilder longFile = new StringBuilder("C:\\");
        while (longFile.length() < 1100) {
            longFile.append('x');
        }
        // SessionConfig refuses names over 1,024 characters when it is built, before any native call;
        // the properties buffer's own BAD_LENGTH check stays as a second line behind it.
        ConfigException e = assertThrows(ConfigException.class, () -> new WindowsBackend(rec, layout, WindowsVersion.parse("10.0"))
                .startSession(SessionConfig.builder().logFile(Paths.get(longFile.toString())).build()));
        assertEquals("file", e.key());
        assertTrue(rec.calls("StartTraceW").isEmpty());
    }
}
