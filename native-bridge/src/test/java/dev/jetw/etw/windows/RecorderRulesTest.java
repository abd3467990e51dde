package dev.jetw.etw.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jetw.etl.Guids;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.UUID;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorder's own checks: each documented rule it enforces flags a buffer that breaks it. Without
 * these, a recorder that checked nothing would let every backend test pass.
 */
class RecorderRulesTest {

    enum Layout { X64, X86 }

    static EtwLayout of(Layout l) {
        return l == Layout.X64 ? EtwLayout.X64 : EtwLayout.X86;
    }

    /** A valid StartTrace buffer as the backend builds it, then broken by {@code breakIt}. */
    static String startViolation(EtwLayout layout, Consumer<PropertiesBuffer> breakIt) {
        RecordingNativeEtw rec = new RecordingNativeEtw(layout);
        PropertiesBuffer p = new PropertiesBuffer(layout);
        p.setInt(EtwLayout.WNODE_CLIENT_CONTEXT, 1);
        p.setInt(EtwLayout.ETP_BUFFER_SIZE, 64);
        p.setInt(EtwLayout.ETP_MINIMUM_BUFFERS, 4);
        p.setInt(EtwLayout.ETP_MAXIMUM_BUFFERS, 8);
        p.setInt(EtwLayout.ETP_LOG_FILE_MODE, 1);
        p.setSessionName("s");
        p.setLogFileName("C:\\a.etl");
        breakIt.accept(p);
        Memory id = new Memory(8);
        rec.StartTraceW(id, PropertiesBuffer.wideString("s"), p.pointer());
        return String.join("; ", rec.violations);
    }

    @Test
    void anUpdateThatDropsTheSessionsKernelFlagsIsFlagged() {
        RecordingNativeEtw rec = new RecordingNativeEtw(EtwLayout.X64);
        rec.answer("s").enableFlags = 0x11;
        PropertiesBuffer p = new PropertiesBuffer(EtwLayout.X64);
        p.keepLogFile();
        rec.ControlTraceW(0, PropertiesBuffer.wideString("s"), p.pointer(), EtwConstants.EVENT_TRACE_CONTROL_UPDATE);
        assertEquals("ControlTraceW UPDATE: EnableFlags 0x0 drops kernel providers the session runs (0x11)",
                String.join("; ", rec.violations));
        rec.violations.clear();
        p.setInt(EtwLayout.ETP_ENABLE_FLAGS, 0x11);
        rec.ControlTraceW(0, PropertiesBuffer.wideString("s"), p.pointer(), EtwConstants.EVENT_TRACE_CONTROL_UPDATE);
        assertEquals("", String.join("; ", rec.violations));
    }

    @Test
    void theProfileFlagWithoutThePrivilegeIsFlagged() {
        String v = startViolation(EtwLayout.X64, p -> {
            p.setInt(EtwLayout.ETP_LOG_FILE_MODE, 1 | 0x02000000);
            p.setGuid(UUID.randomUUID());
            p.setInt(EtwLayout.ETP_ENABLE_FLAGS, 0x01000000);
        });
        assertEquals("StartTraceW: EVENT_TRACE_FLAG_PROFILE without SeSystemProfilePrivilege enabled in the token", v);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aValidBufferPasses(Layout l) {
        assertEquals("", startViolation(of(l), p -> { }));
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void eachBrokenPropertiesRuleIsFlagged(Layout l) {
        EtwLayout layout = of(l);
        assertTrue(startViolation(layout, p -> p.setInt(0, 200)).contains("BufferSize 200 != allocation"));
        assertTrue(startViolation(layout, p -> p.setInt(EtwLayout.WNODE_FLAGS, 0)).contains("TRACED_GUID"));
        assertTrue(startViolation(layout, p -> p.setInt(layout.etpLoggerNameOffset(), 124)).contains("LoggerNameOffset 124"));
        assertTrue(startViolation(layout, p -> p.setInt(layout.etpLogFileNameOffset(), 122)).contains("overlaps the session name"));
        assertTrue(startViolation(layout, p -> p.setInt(EtwLayout.ETP_LOG_FILE_MODE, 2)).contains("without MaximumFileSize"));
        assertTrue(startViolation(layout, p -> p.setInt(EtwLayout.WNODE_CLIENT_CONTEXT, 0)).contains("ClientContext 0"));
        assertTrue(startViolation(layout, p -> p.setInt(layout.etpLogFileNameOffset(), 0)).contains("neither real-time nor buffering"));
        assertTrue(startViolation(layout, p -> p.setInt(EtwLayout.ETP_LOG_FILE_MODE, 0x400))
                .contains("a buffering session started with a log-file name"));
        assertEquals("", startViolation(layout, p -> {
            p.setInt(EtwLayout.ETP_LOG_FILE_MODE, 0x400);
            p.setLogFileName(null);
        }), "an in-memory ring without a file is what PerfView starts");
        assertTrue(startViolation(layout, p -> p.setSessionName("other")).contains("!= InstanceName"));
        assertTrue(startViolation(layout, p -> p.setInt(EtwLayout.ETP_ENABLE_FLAGS, 1)).contains("EnableFlags outside"));
        assertTrue(startViolation(layout, p -> {
            p.setInt(EtwLayout.ETP_LOG_FILE_MODE, 0x02000001);
            p.setInt(EtwLayout.ETP_ENABLE_FLAGS, 1);
        }).contains("system logger needs a new GUID"));
        assertTrue(startViolation(layout, p -> p.setGuid(RecordingNativeEtw.SYSTEM_TRACE)).contains("SystemTraceControlGuid with a name"));
        assertTrue(startViolation(layout, p -> {
            // an unterminated log-file name that runs to the end of the allocation
            for (int i = PropertiesBuffer.LOG_FILE_NAME_OFFSET; i < PropertiesBuffer.SIZE; i++) {
                p.pointer().setByte(i, (byte) 'x');
            }
        }).contains("not NUL-terminated"));
    }

    @Test
    void aControlBufferThatIsNotFreshIsFlagged() {
        RecordingNativeEtw rec = new RecordingNativeEtw(EtwLayout.X64);
        PropertiesBuffer p = new PropertiesBuffer(EtwLayout.X64);
        p.setInt(EtwLayout.ETP_MAXIMUM_BUFFERS, 8);
        rec.ControlTraceW(0, PropertiesBuffer.wideString("s"), p.pointer(), EtwConstants.EVENT_TRACE_CONTROL_STOP);
        assertTrue(String.join(";", rec.violations).contains("offset 56 not zero"), rec.violations.toString());
    }

    @Test
    void instanceEventRulesAreFlagged() {
        RecordingNativeEtw rec = new RecordingNativeEtw(EtwLayout.X64);
        long reg = 0x1234;
        Memory header = new Memory(72);
        header.clear();
        header.setShort(0, (short) 72);
        header.setLong(24, reg);
        header.setInt(44, 0x00100000); // USE_MOF_PTR without TRACED_GUID
        header.setLong(48, 0x999);
        header.setLong(56, 0);
        header.setInt(64, 10);
        rec.TraceEventInstance(1, header, null, null);
        String v = String.join("; ", rec.violations);
        assertTrue(v.contains("lacks WNODE_FLAG_TRACED_GUID"), v);
        assertTrue(v.contains("not a registered class"), v);
        assertTrue(v.contains("InstInfo is NULL"), v);
        assertTrue(v.contains("ParentRegHandle set without ParentInstInfo"), v);
        assertTrue(v.contains("DataPtr NULL"), v);
        rec.violations.clear();
        header.setShort(0, (short) 70);
        header.setInt(44, 0x00120000);
        header.setLong(48, 0);
        header.setInt(64, 0);
        rec.TraceEventInstance(1, header, new Memory(16), null);
        assertTrue(String.join("; ", rec.violations).contains("Size 70 is not header + n MOF_FIELDs"), rec.violations.toString());
        assertThrows(AssertionError.class, rec::assertNoViolations);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void registrationReadsTheGuidPointersAndWritesPointerSizedRegHandles(Layout l) {
        EtwLayout layout = of(l);
        RecordingNativeEtw rec = new RecordingNativeEtw(layout);
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        int reg = layout.traceGuidRegistrationSize();
        Memory m = new Memory(2 * reg + 48);
        m.clear();
        m.write(2 * reg, Guids.toBytes(new UUID(1, 2)), 0, 16);
        m.write(2 * reg + 16, Guids.toBytes(a), 0, 16);
        m.write(2 * reg + 32, Guids.toBytes(b), 0, 16);
        for (int i = 0; i < 2; i++) {
            long address = Pointer.nativeValue(m) + 2 * reg + 16 + 16L * i;
            if (layout.pointerSize() == 8) {
                m.setLong((long) i * reg, address);
            } else {
                m.setInt((long) i * reg, (int) address);
            }
        }
        Memory out = new Memory(8);
        assertEquals(0, rec.RegisterTraceGuidsW((c, ctx, s, buf) -> 0, null, m.share(2 * reg), 2, m, null, null, out));
        assertEquals(new UUID(1, 2), rec.last("RegisterTraceGuidsW").guid);
        assertEquals(java.util.List.of(a, b), rec.last("RegisterTraceGuidsW").classGuids);
        long second = layout.pointerSize() == 8 ? m.getLong(reg + layout.pointerSize()) : m.getInt(reg + layout.pointerSize()) & 0xFFFFFFFFL;
        assertEquals(rec.classRegHandles.get(1).longValue(), second);
        assertEquals(rec.registrationHandle, out.getLong(0));
        rec.assertNoViolations();
    }
}
