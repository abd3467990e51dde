package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.AltCallingConvention;
import com.sun.jna.Callback;
import com.sun.jna.Function;
import com.sun.jna.IntegerType;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.PointerType;
import com.sun.jna.Structure;
import com.sun.jna.WString;
import com.sun.jna.win32.StdCallLibrary;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The binding's shape: what it loads when, which types and conventions it declares, how it rebinds. */
class JnaBindingTest {

    @Test
    void touchingTheContractsDoesNotLoadJnasNativeLibrary() throws IOException {
        assumeTrue(Files.exists(Paths.get("/proc/self/maps")), "needs /proc/self/maps (Linux)");
        assertEquals("jnidispatch-mapped=false", runIsolated().split(" ")[0],
                "EtwLayout, EtwConstants, NativeEtw and the JnaNativeEtw class load without JNA's native part");
        // Control: binding a library does map it, so the check above can see it.
        String stub = StubLibrary.build().toString();
        assertEquals("jnidispatch-mapped=true", runIsolated("load", stub).split(" ")[0]);
    }

    private static String runIsolated(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), BindingIsolationMain.class.getName()));
        cmd.addAll(List.of(args));
        ProbeToolchain.Result r = ProbeToolchain.run(cmd, ProbeToolchain.moduleDir());
        assertEquals(0, r.exitCode, "child JVM failed: " + r.output);
        String last = r.output.strip();
        return last.substring(last.lastIndexOf('\n') + 1);
    }

    /** ULONG must be int and handles long: NativeLong/WinDef.ULONG are 8 bytes on Linux, String/WString 4-byte wchar_t. */
    @Test
    void everyBoundSignatureUsesFixedWidthTypesOnly() {
        List<String> bad = new ArrayList<>();
        for (Class<?> binding : List.of(NativeEtw.class, Advapi32Library.class, Advapi32Direct.class)) {
            for (Method m : binding.getDeclaredMethods()) {
                if (m.isSynthetic() || m.getName().equals("bind")) {
                    continue;
                }
                List<Class<?>> types = new ArrayList<>(List.of(m.getParameterTypes()));
                types.add(m.getReturnType());
                for (Class<?> t : types) {
                    boolean fixed = t == int.class || t == long.class || t == byte.class || t == Pointer.class
                            || Callback.class.isAssignableFrom(t) || (t == void.class && types.indexOf(t) == types.size() - 1);
                    if (!fixed || NativeLong.class.isAssignableFrom(t) || IntegerType.class.isAssignableFrom(t)
                            || PointerType.class.isAssignableFrom(t) || Structure.class.isAssignableFrom(t)
                            || t == String.class || t == WString.class) {
                        bad.add(binding.getSimpleName() + "." + m.getName() + ": " + t.getName());
                    }
                }
            }
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void theControlCallsAreStdcallAndThePerEventCallsDirectMapped() throws NoSuchMethodException {
        assertTrue(StdCallLibrary.class.isAssignableFrom(Advapi32Library.class));
        assertTrue(AltCallingConvention.class.isAssignableFrom(NativeEtw.ControlCallback.class),
                "WMIDPREQUEST is WINAPI: stdcall on x86");
        for (String name : List.of("TraceEventInstance", "TraceEvent", "CreateTraceInstanceId")) {
            Method direct = null;
            for (Method m : Advapi32Direct.class.getDeclaredMethods()) {
                if (m.getName().equals(name)) {
                    direct = m;
                }
            }
            assertTrue(direct != null && Modifier.isNative(direct.getModifiers()) && Modifier.isStatic(direct.getModifiers()),
                    name + " is a static native (direct-mapped)");
        }
        assertEquals(StdCallLibrary.STDCALL_CONVENTION, JnaNativeEtw.callingConvention(true), "Windows: stdcall");
        assertEquals(Function.C_CONVENTION, JnaNativeEtw.callingConvention(false),
                "elsewhere JNA refuses stdcall; the C convention binds the stub");
    }

    @Test
    void theCallbackGoesToJnaAsIsOnWindowsAndAsACDelegateElsewhere() {
        int[] seen = new int[1];
        Pointer marker = new Pointer(0x1234);
        NativeEtw.ControlCallback cb = (code, ctx, size, buffer) -> {
            seen[0] = code;
            return ctx == marker ? 77 : -1;
        };
        assertSame(cb, JnaNativeEtw.nativeCallback(cb, true));
        Callback elsewhere = JnaNativeEtw.nativeCallback(cb, false);
        assertTrue(elsewhere instanceof CdeclControlCallback && !(elsewhere instanceof AltCallingConvention));
        assertEquals(77, ((CdeclControlCallback) elsewhere).callback(4, marker, null, null));
        assertEquals(4, seen[0]);
        assertEquals(null, JnaNativeEtw.nativeCallback(null, false));
    }

    @Test
    void thePerEventCallsCannotBeSilentlyRebound() throws IOException {
        StubLibrary.etw();   // binds the direct mapping to the stub in this JVM
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JnaNativeEtw.load("c"));
        assertTrue(e.getMessage().contains("already bound to") && e.getMessage().contains("etwstub"), e.getMessage());
        assertTrue(StubLibrary.etw() != null, "the same library binds again");
        JnaNativeEtw.load(StubLibrary.build().toString());
    }

    /** The Windows CI job: the ELF stub is not attempted there; the reason names the OS and what runs instead. */
    @Test
    void theStubIsBuiltOnLinuxOnlyAndSaysWhyNotElsewhere() {
        assertEquals(null, StubLibrary.notBuiltHere("Linux"));
        String why = StubLibrary.notBuiltHere("Windows Server 2022");
        assertTrue(why != null && why.contains("Windows Server 2022") && why.contains("tagged windows"), why);
    }
}
