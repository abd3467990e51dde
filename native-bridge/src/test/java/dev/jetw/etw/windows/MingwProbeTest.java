package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.jna.Callback;
import com.sun.jna.Pointer;
import dev.jetw.etl.EventType;
import dev.jetw.etl.Guids;
import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etl.TraceLevel;
import dev.jetw.etw.Win32Error;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Proves EtwLayout (X64 and X86), EtwConstants, Win32Error, LogFileMode, KernelFlag, EventType and
 * TraceLevel against mingw-w64's evntrace.h / wmistr.h / winerror.h / ntstatus.h, as the x86_64
 * and i686 Windows compilers see them. The test generates a probe C file whose initialised array
 * {@code jetw_probe} holds sizeof/offsetof/constant values, compiles it with {@code -S} (we cannot
 * run a Windows .exe here) and reads the numbers back from the assembly. It also checks the i686
 * stdcall decorations ({@code _StartTraceW@12}: bytes of arguments) against the Java signatures,
 * which catches a wrong argument count or width on 32-bit Windows.
 *
 * <p>Without a compiler the tests skip, except under CI=true, where they fail.
 */
class MingwProbeTest {

    private static final String X64_GCC = "x86_64-w64-mingw32-gcc";
    private static final String X86_GCC = "i686-w64-mingw32-gcc";

    /** One probed value: the Java side's name and value (per layout), and the C expression. */
    record Entry(String javaName, String cExpression, boolean macro, boolean int32, Function<EtwLayout, Long> java) {
    }

    // ------------------------------------------------------------ what is probed

    /** EtwLayout's static members: C expressions (a field shared by both event headers is checked in both). */
    private static final Map<String, List<String>> LAYOUT_FIELDS = new LinkedHashMap<>();
    /** EtwLayout's per-architecture methods. */
    private static final Map<String, String> LAYOUT_METHODS = new LinkedHashMap<>();
    private static final Map<LogFileMode, String> LOG_FILE_MODES = new EnumMap<>(LogFileMode.class);
    /** EtwConstants members that are jetw's own choices, not SDK constants. */
    private static final List<String> NOT_SDK = List.of("MAX_NAME_CHARS", "KERNEL_LOGGER_NAME", "SYSTEM_TRACE_CONTROL_GUID");

    static {
        layout("WNODE_HEADER_SIZE", "sizeof(WNODE_HEADER)");
        for (String[] f : new String[][] {
            {"BUFFER_SIZE", "BufferSize"}, {"PROVIDER_ID", "ProviderId"}, {"HISTORICAL_CONTEXT", "HistoricalContext"},
            {"VERSION", "Version"}, {"LINKAGE", "Linkage"}, {"TIMESTAMP", "TimeStamp"}, {"COUNT_LOST", "CountLost"},
            {"KERNEL_HANDLE", "KernelHandle"}, {"GUID", "Guid"}, {"CLIENT_CONTEXT", "ClientContext"}, {"FLAGS", "Flags"}}) {
            layout("WNODE_" + f[0], "offsetof(WNODE_HEADER, " + f[1] + ")");
        }
        layout("ETP_WNODE", "offsetof(EVENT_TRACE_PROPERTIES, Wnode)");
        for (String[] f : new String[][] {
            {"BUFFER_SIZE", "BufferSize"}, {"MINIMUM_BUFFERS", "MinimumBuffers"}, {"MAXIMUM_BUFFERS", "MaximumBuffers"},
            {"MAXIMUM_FILE_SIZE", "MaximumFileSize"}, {"LOG_FILE_MODE", "LogFileMode"}, {"FLUSH_TIMER", "FlushTimer"},
            {"ENABLE_FLAGS", "EnableFlags"}, {"AGE_LIMIT", "AgeLimit"}, {"NUMBER_OF_BUFFERS", "NumberOfBuffers"},
            {"FREE_BUFFERS", "FreeBuffers"}, {"EVENTS_LOST", "EventsLost"}, {"BUFFERS_WRITTEN", "BuffersWritten"},
            {"LOG_BUFFERS_LOST", "LogBuffersLost"}, {"REAL_TIME_BUFFERS_LOST", "RealTimeBuffersLost"},
            {"LOGGER_THREAD_ID", "LoggerThreadId"}}) {
            layout("ETP_" + f[0], "offsetof(EVENT_TRACE_PROPERTIES, " + f[1] + ")");
        }
        layout("ETP_SIZE", "sizeof(EVENT_TRACE_PROPERTIES)");
        layout("EVENT_TRACE_HEADER_SIZE", "sizeof(EVENT_TRACE_HEADER)");
        layout("EVENT_INSTANCE_HEADER_SIZE", "sizeof(EVENT_INSTANCE_HEADER)");
        for (String[] f : new String[][] {
            {"SIZE", "Size"}, {"FIELD_TYPE_FLAGS", "FieldTypeFlags"}, {"HEADER_TYPE", "HeaderType"},
            {"MARKER_FLAGS", "MarkerFlags"}, {"VERSION", "Version"}, {"CLASS_TYPE", "Class.Type"},
            {"CLASS_LEVEL", "Class.Level"}, {"CLASS_VERSION", "Class.Version"}, {"THREAD_ID", "ThreadId"},
            {"PROCESS_ID", "ProcessId"}, {"TIMESTAMP", "TimeStamp"}, {"KERNEL_TIME", "KernelTime"},
            {"USER_TIME", "UserTime"}, {"PROCESSOR_TIME", "ProcessorTime"}, {"FLAGS", "Flags"}}) {
            layout("EH_" + f[0], "offsetof(EVENT_TRACE_HEADER, " + f[1] + ")",
                    "offsetof(EVENT_INSTANCE_HEADER, " + f[1] + ")");
        }
        layout("ETH_GUID", "offsetof(EVENT_TRACE_HEADER, Guid)");
        layout("ETH_GUID_PTR", "offsetof(EVENT_TRACE_HEADER, GuidPtr)");
        layout("ETH_CLIENT_CONTEXT", "offsetof(EVENT_TRACE_HEADER, ClientContext)");
        layout("EIH_REG_HANDLE", "offsetof(EVENT_INSTANCE_HEADER, RegHandle)");
        layout("EIH_INSTANCE_ID", "offsetof(EVENT_INSTANCE_HEADER, InstanceId)");
        layout("EIH_PARENT_INSTANCE_ID", "offsetof(EVENT_INSTANCE_HEADER, ParentInstanceId)");
        layout("EIH_EVENT_ID", "offsetof(EVENT_INSTANCE_HEADER, EventId)");
        layout("EIH_PARENT_REG_HANDLE", "offsetof(EVENT_INSTANCE_HEADER, ParentRegHandle)");
        layout("MOF_FIELD_SIZE", "sizeof(MOF_FIELD)");
        layout("MOF_DATA_PTR", "offsetof(MOF_FIELD, DataPtr)");
        layout("MOF_LENGTH", "offsetof(MOF_FIELD, Length)");
        layout("MOF_DATA_TYPE", "offsetof(MOF_FIELD, DataType)");
        layout("MAX_MOF_FIELDS", "MAX_MOF_FIELDS");
        layout("GUID_SIZE", "sizeof(GUID)");

        LAYOUT_METHODS.put("pointerSize", "sizeof(void *)");
        LAYOUT_METHODS.put("etpLogFileNameOffset", "offsetof(EVENT_TRACE_PROPERTIES, LogFileNameOffset)");
        LAYOUT_METHODS.put("etpLoggerNameOffset", "offsetof(EVENT_TRACE_PROPERTIES, LoggerNameOffset)");
        LAYOUT_METHODS.put("instanceInfoSize", "sizeof(EVENT_INSTANCE_INFO)");
        LAYOUT_METHODS.put("instanceInfoRegHandle", "offsetof(EVENT_INSTANCE_INFO, RegHandle)");
        LAYOUT_METHODS.put("instanceInfoInstanceId", "offsetof(EVENT_INSTANCE_INFO, InstanceId)");
        LAYOUT_METHODS.put("traceGuidRegistrationSize", "sizeof(TRACE_GUID_REGISTRATION)");
        LAYOUT_METHODS.put("traceGuidRegistrationGuid", "offsetof(TRACE_GUID_REGISTRATION, Guid)");
        LAYOUT_METHODS.put("traceGuidRegistrationRegHandle", "offsetof(TRACE_GUID_REGISTRATION, RegHandle)");

        LOG_FILE_MODES.put(LogFileMode.SEQUENTIAL, "EVENT_TRACE_FILE_MODE_SEQUENTIAL");
        LOG_FILE_MODES.put(LogFileMode.CIRCULAR, "EVENT_TRACE_FILE_MODE_CIRCULAR");
        LOG_FILE_MODES.put(LogFileMode.APPEND, "EVENT_TRACE_FILE_MODE_APPEND");
        LOG_FILE_MODES.put(LogFileMode.NEWFILE, "EVENT_TRACE_FILE_MODE_NEWFILE");
        LOG_FILE_MODES.put(LogFileMode.PREALLOCATE, "EVENT_TRACE_FILE_MODE_PREALLOCATE");
        LOG_FILE_MODES.put(LogFileMode.REAL_TIME, "EVENT_TRACE_REAL_TIME_MODE");
        LOG_FILE_MODES.put(LogFileMode.BUFFERING, "EVENT_TRACE_BUFFERING_MODE");
        LOG_FILE_MODES.put(LogFileMode.PRIVATE, "EVENT_TRACE_PRIVATE_LOGGER_MODE");
        // The private in-process mode is documented as both bits together.
        LOG_FILE_MODES.put(LogFileMode.PRIVATE_IN_PROC, "EVENT_TRACE_PRIVATE_IN_PROC | EVENT_TRACE_PRIVATE_LOGGER_MODE");
        LOG_FILE_MODES.put(LogFileMode.SYSTEM_LOGGER, "EVENT_TRACE_SYSTEM_LOGGER_MODE");
        LOG_FILE_MODES.put(LogFileMode.INDEPENDENT_SESSION, "EVENT_TRACE_INDEPENDENT_SESSION_MODE");
        LOG_FILE_MODES.put(LogFileMode.NO_PER_PROCESSOR_BUFFERING, "EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING");
    }

    private static void layout(String field, String... cExpressions) {
        LAYOUT_FIELDS.put(field, List.of(cExpressions));
    }

    private static List<Field> intConstants(Class<?> type) {
        List<Field> result = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m) && f.getType() == int.class) {
                result.add(f);
            }
        }
        return result;
    }

    private static List<Method> layoutMethods() {
        List<Method> result = new ArrayList<>();
        for (Method m : EtwLayout.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                    && m.getReturnType() == int.class && m.getParameterCount() == 0) {
                result.add(m);
            }
        }
        return result;
    }

    private static long staticInt(Field f) {
        try {
            return f.getInt(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** Every probed value, in the order of the generated array. */
    static List<Entry> entries() {
        List<Entry> list = new ArrayList<>();
        for (Field f : intConstants(EtwLayout.class)) {
            for (String c : LAYOUT_FIELDS.getOrDefault(f.getName(), List.of())) {
                list.add(new Entry("EtwLayout." + f.getName(), c, c.equals("MAX_MOF_FIELDS"), false, l -> staticInt(f)));
            }
        }
        for (Method m : layoutMethods()) {
            String c = LAYOUT_METHODS.get(m.getName());
            if (c != null) {
                list.add(new Entry("EtwLayout.<arch>." + m.getName() + "()", c, false, false, l -> {
                    try {
                        return (long) (int) m.invoke(l);
                    } catch (ReflectiveOperationException e) {
                        throw new AssertionError(e);
                    }
                }));
            }
        }
        for (Field f : intConstants(EtwConstants.class)) {
            if (!NOT_SDK.contains(f.getName())) {
                // WMIDPREQUESTCODE values are enum constants, not macros: no #ifdef for them.
                list.add(new Entry("EtwConstants." + f.getName(), f.getName(), !f.getName().startsWith("WMI_"), true,
                        l -> staticInt(f)));
            }
        }
        for (Field f : intConstants(Win32Error.class)) {
            String c = f.getName().equals("STATUS_LOG_FILE_FULL") ? "STATUS_LOG_FILE_FULL" : "ERROR_" + f.getName();
            list.add(new Entry("Win32Error." + f.getName(), c, true, true, l -> staticInt(f)));
        }
        for (LogFileMode m : LogFileMode.values()) {
            String c = LOG_FILE_MODES.get(m);
            if (c != null) {
                list.add(new Entry("LogFileMode." + m.name(), c, false, true, l -> (long) m.bits()));
            }
        }
        for (KernelFlag k : KernelFlag.values()) {
            list.add(new Entry("KernelFlag." + k.name(), "EVENT_TRACE_FLAG_" + k.name(), true, true, l -> (long) k.bits()));
        }
        for (Field f : intConstants(EventType.class)) {
            list.add(new Entry("EventType." + f.getName(), "EVENT_TRACE_TYPE_" + f.getName(), true, true, l -> staticInt(f)));
        }
        for (Field f : intConstants(TraceLevel.class)) {
            list.add(new Entry("TraceLevel." + f.getName(), "TRACE_LEVEL_" + f.getName(), true, true, l -> staticInt(f)));
        }
        // SystemProfilePrivilege's token constants and the TOKEN_PRIVILEGES it builds (winnt.h).
        list.add(new Entry("SystemProfilePrivilege.TOKEN_ADJUST_PRIVILEGES", "TOKEN_ADJUST_PRIVILEGES", true, true,
                l -> (long) SystemProfilePrivilege.TOKEN_ADJUST_PRIVILEGES));
        list.add(new Entry("SystemProfilePrivilege.TOKEN_QUERY", "TOKEN_QUERY", true, true,
                l -> (long) SystemProfilePrivilege.TOKEN_QUERY));
        list.add(new Entry("SystemProfilePrivilege.SE_PRIVILEGE_ENABLED", "SE_PRIVILEGE_ENABLED", true, true,
                l -> (long) SystemProfilePrivilege.SE_PRIVILEGE_ENABLED));
        list.add(new Entry("SystemProfilePrivilege.TOKEN_PRIVILEGES_SIZE", "sizeof(TOKEN_PRIVILEGES)", false, false,
                l -> (long) SystemProfilePrivilege.TOKEN_PRIVILEGES_SIZE));
        list.add(new Entry("SystemProfilePrivilege.TP_LUID", "offsetof(TOKEN_PRIVILEGES, Privileges[0].Luid)", false,
                false, l -> (long) SystemProfilePrivilege.TP_LUID));
        list.add(new Entry("SystemProfilePrivilege.TP_ATTRIBUTES", "offsetof(TOKEN_PRIVILEGES, Privileges[0].Attributes)",
                false, false, l -> (long) SystemProfilePrivilege.TP_ATTRIBUTES));
        list.add(new Entry("SystemProfilePrivilege.LUID_SIZE", "sizeof(LUID)", false, false,
                l -> (long) SystemProfilePrivilege.LUID_SIZE));
        list.add(new Entry("EtwConstants.KERNEL_LOGGER_NAME (UTF-16 bytes with NUL)", "sizeof(KERNEL_LOGGER_NAMEW)", false,
                false, l -> (EtwConstants.KERNEL_LOGGER_NAME.length() + 1) * 2L));
        return list;
    }

    /** The functions of the binding (advapi32, and kernel32's performance counter): every NativeEtw method. */
    private static List<String> functions() {
        TreeSet<String> names = new TreeSet<>();
        for (Method m : NativeEtw.class.getDeclaredMethods()) {
            names.add(m.getName());
        }
        return new ArrayList<>(names);
    }

    static String probeSource(List<Entry> entries) {
        StringBuilder c = new StringBuilder();
        c.append("/* Generated by MingwProbeTest: sizes, offsets and constants as a Windows compiler sees them. */\n")
                .append("#define _WIN32_WINNT 0x0A00\n#define WINVER 0x0A00\n")
                .append("#define WIN32_NO_STATUS\n#include <windows.h>\n#undef WIN32_NO_STATUS\n#include <ntstatus.h>\n")
                .append("#include <initguid.h>   /* DEFINE_GUID then defines SystemTraceControlGuid with its bytes */\n")
                .append("#include <wmistr.h>\n#include <evntrace.h>\n#include <stddef.h>\n\n")
                .append("#define JETW_MISSING 0x7A7A7A7A7A7A7A7ALL   /* a macro the headers do not define */\n\n")
                .append("const long long jetw_probe[] = {\n");
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            String value = "    (long long) (" + e.cExpression() + "),   /* " + i + ": " + e.javaName() + " */\n";
            if (e.macro()) {
                String macro = e.cExpression();
                c.append("#ifdef ").append(macro).append('\n').append(value)
                        .append("#else\n    JETW_MISSING,\n#endif\n");
            } else {
                c.append(value);
            }
        }
        c.append("};\n\nconst unsigned short jetw_kernel_logger_name[] = KERNEL_LOGGER_NAMEW;\n\n")
                .append("/* Referencing each function makes the i686 compiler name its stdcall decoration (_Name@bytes). */\n")
                .append("void *const jetw_functions[] = {\n");
        for (String f : functions()) {
            c.append("    (void *) &").append(f).append(",\n");
        }
        c.append("};\n");
        return c.toString();
    }

    private static final Map<String, ProbeAssembly> COMPILED = new HashMap<>();

    /** Generates, compiles (-S) and returns the probe's assembly for one compiler, into target/etw-probe/. */
    private static synchronized ProbeAssembly compile(String compiler) throws IOException {
        ProbeToolchain.require(compiler);
        ProbeAssembly cached = COMPILED.get(compiler);
        if (cached != null) {
            return cached;
        }
        Path dir = Files.createDirectories(ProbeToolchain.targetDir("etw-probe").resolve(compiler));
        Path source = dir.resolve("etw_probe.c");
        Path asm = dir.resolve("etw_probe.s");
        Files.writeString(source, probeSource(entries()));
        ProbeToolchain.compile(Arrays.asList(compiler, "-S", "-O0", "-o", asm.toString(), source.toString()), dir);
        ProbeAssembly result = new ProbeAssembly(Files.readString(asm, StandardCharsets.ISO_8859_1));
        COMPILED.put(compiler, result);
        return result;
    }

    // ------------------------------------------------------------ the tests

    @Test
    void x86_64HeadersAgreeWithEtwLayoutX64AndTheJavaConstants() throws IOException {
        assertAgrees(X64_GCC, EtwLayout.X64);
    }

    @Test
    void i686HeadersAgreeWithEtwLayoutX86AndTheJavaConstants() throws IOException {
        assertAgrees(X86_GCC, EtwLayout.X86);
    }

    private static void assertAgrees(String compiler, EtwLayout layout) throws IOException {
        ProbeAssembly asm = compile(compiler);
        List<Entry> entries = entries();
        long[] c = asm.longsAt("jetw_probe", entries.size());
        List<String> mismatches = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            long java = e.java().apply(layout);
            String line = e.javaName() + " = " + java + " vs " + e.cExpression() + " = " + c[i];
            report.append(line).append('\n');
            if (c[i] == 0x7A7A7A7A7A7A7A7AL) {
                mismatches.add(e.javaName() + ": " + e.cExpression() + " is not defined by the mingw-w64 headers (Java "
                        + java + ")");
            } else if (e.int32() ? (int) c[i] != (int) java : c[i] != java) {
                mismatches.add(e.javaName() + ": Java " + java + " (0x" + Long.toHexString(java) + "), " + compiler + " "
                        + e.cExpression() + " = " + c[i] + " (0x" + Long.toHexString(c[i]) + ")");
            }
        }

        byte[] guid = asm.bytesAt("SystemTraceControlGuid");
        byte[] javaGuid = Guids.toBytes(UUID.fromString(EtwConstants.SYSTEM_TRACE_CONTROL_GUID));
        if (guid == null || !Arrays.equals(Arrays.copyOf(guid, 16), javaGuid)) {
            mismatches.add("EtwConstants.SYSTEM_TRACE_CONTROL_GUID: Java bytes " + Arrays.toString(javaGuid) + ", "
                    + compiler + " SystemTraceControlGuid bytes " + Arrays.toString(guid));
        }
        byte[] name = asm.bytesAt("jetw_kernel_logger_name");
        byte[] javaName = (EtwConstants.KERNEL_LOGGER_NAME + "\0").getBytes(StandardCharsets.UTF_16LE);
        if (!Arrays.equals(name, javaName)) {
            mismatches.add("EtwConstants.KERNEL_LOGGER_NAME: Java UTF-16LE " + Arrays.toString(javaName) + ", " + compiler
                    + " KERNEL_LOGGER_NAMEW " + Arrays.toString(name));
        }
        Files.writeString(ProbeToolchain.targetDir("etw-probe").resolve(compiler).resolve("report.txt"), report);

        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " of " + (entries.size() + 2) + " values differ from " + compiler + ":\n  "
                    + String.join("\n  ", mismatches));
        }
        assertTrue(entries.size() > 150, "the probe covers every member (" + entries.size() + " values)");
    }

    /**
     * The i686 import names carry the stdcall argument bytes ({@code _EnableTraceEx2@44}). Every
     * Java signature the binding declares (NativeEtw, the interface mapping, the direct mapping)
     * must add up to the same count on x86: long is 8 bytes, int/byte/Pointer/callback 4 each.
     */
    @Test
    void i686StdcallArgumentBytesAgreeWithEveryJavaSignature() throws IOException {
        Map<String, Integer> decorations = compile(X86_GCC).stdcallDecorations();
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        for (Class<?> binding : List.of(NativeEtw.class, Advapi32Library.class, Advapi32Direct.class,
                Kernel32Handles.class, PerformanceCounterLibrary.class)) {
            for (Method m : binding.getDeclaredMethods()) {
                if (m.isSynthetic() || m.getName().equals("bind")) {
                    continue;
                }
                Integer c = decorations.get(m.getName());
                int java = x86ArgumentBytes(m);
                checked++;
                if (c == null || c != java) {
                    mismatches.add(binding.getSimpleName() + "." + m.getName() + ": Java " + java + " bytes, i686 "
                            + (c == null ? "no stdcall symbol" : "@" + c));
                }
            }
        }
        if (!mismatches.isEmpty()) {
            fail("stdcall argument bytes differ:\n  " + String.join("\n  ", mismatches));
        }
        assertEquals(21 + 13 + 3 + 1 + 3, checked, "21 NativeEtw methods, 13 interface-mapped, 3 direct-mapped,"
                + " CloseHandle, the 2 performance-counter calls and GetSystemTimePreciseAsFileTime from kernel32");
    }

    static int x86ArgumentBytes(Method m) {
        int bytes = 0;
        for (Class<?> p : m.getParameterTypes()) {
            if (p == long.class || p == double.class) {
                bytes += 8;
            } else if (p == int.class || p == byte.class || p == short.class || p == float.class
                    || Pointer.class.isAssignableFrom(p) || Callback.class.isAssignableFrom(p)) {
                bytes += 4;
            } else {
                throw new AssertionError(m + ": parameter type " + p.getName() + " has no fixed x86 width");
            }
        }
        return bytes;
    }

    /** A member added to EtwLayout, a new error code or a new mode must be added to the probe too. */
    @Test
    void everyLayoutMemberAndConstantIsProbed() {
        List<String> missing = new ArrayList<>();
        for (Field f : intConstants(EtwLayout.class)) {
            if (!LAYOUT_FIELDS.containsKey(f.getName())) {
                missing.add("EtwLayout." + f.getName());
            }
        }
        for (Method m : layoutMethods()) {
            if (!LAYOUT_METHODS.containsKey(m.getName())) {
                missing.add("EtwLayout." + m.getName() + "()");
            }
        }
        for (LogFileMode m : LogFileMode.values()) {
            if (!LOG_FILE_MODES.containsKey(m)) {
                missing.add("LogFileMode." + m.name());
            }
        }
        assertEquals(List.of(), missing, "members without a C expression in MingwProbeTest");
    }

    /** The assembly reader on text as mingw-w64 GCC 12 writes it (i686 spelling: leading underscore). */
    @Test
    void theAssemblyReaderReadsWhatGccWrites() {
        ProbeAssembly asm = new ProbeAssembly(String.join("\n",
                "\t.globl\t_SystemTraceControlGuid",
                "\t.section\t.rdata$SystemTraceControlGuid,\"dr\"",
                "_SystemTraceControlGuid:",
                "\t.long\t-1635693907",
                "\t.word\t12804",
                "\t.word\t4562",
                "\t.ascii \"\\232\\202\\0`\\10\\250i9\"",
                "\t.globl\t_jetw_probe",
                "_jetw_probe:",
                "\t.long\t120",
                "\t.long\t0",
                "\t.quad\t-1",
                "\t.zero\t8",
                "\t.globl\t_jetw_functions",
                "_jetw_functions:",
                "\t.long\t_StartTraceW@12",
                "\t.long\t_EnableTraceEx2@44"));
        assertArrayEquals(Guids.toBytes(UUID.fromString("9e814aad-3204-11d2-9a82-006008a86939")),
                asm.bytesAt("SystemTraceControlGuid"));
        assertArrayEquals(new long[] {120, -1, 0}, asm.longsAt("jetw_probe", 3));
        assertEquals(Map.of("StartTraceW", 12, "EnableTraceEx2", 44), asm.stdcallDecorations());
        assertArrayEquals("N\0T\0".getBytes(StandardCharsets.ISO_8859_1), ProbeAssembly.unescape("\"N\\0T\\0\""));
    }
}
