package dev.jetw.etw.windows;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.jetw.etl.Guids;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;

/**
 * The gcc-built stand-in for advapi32 (src/test/c/etw_stub.c): compiled once per test JVM into
 * target/etw-stub/, then bound through jetw's real mapping ({@link JnaNativeEtw#load}, once per
 * per-event crossing: JNA direct and, on Java 22+, FFM) and through {@link Recorder}, a test-only
 * view of the stub's recording.
 */
final class StubLibrary {

    /** The stub's recording accessors (plain C, cdecl; test-only). */
    interface Recorder extends Library {
        int stub_calls(String function);

        int stub_argc(String function);

        long stub_arg(String function, int index);

        int stub_blob(String function, int index, byte[] out, int capacity);

        long stub_logger_handle(long traceId);

        void stub_set_last_instance_id(int id);

        void stub_set_callback_thread(int on);

        void stub_set_privilege_held(int held);

        void stub_reset();
    }

    private static Path built;
    private static final java.util.Map<String, NativeEtw> bindings = new java.util.HashMap<>();
    private static Recorder recorder;

    private StubLibrary() {
    }

    /**
     * Compiles the stub (skips or, under CI=true, fails without gcc). The static asserts run here.
     * Linux only: the build is an ELF shared object (-shared -fPIC -pthread, visibility attributes that
     * mingw's gcc warns about, under -Werror). Elsewhere (the Windows CI job) the stub tests are skipped
     * with the reason printed; there the tests tagged windows bind the real advapi32.
     */
    static synchronized Path build() throws IOException {
        String reason = notBuiltHere(System.getProperty("os.name", "?"));
        if (reason != null) {
            System.out.println("jetw: " + reason);
            org.junit.jupiter.api.Assumptions.abort(reason);
        }
        ProbeToolchain.require("gcc");
        if (built == null) {
            Path dir = Files.createDirectories(ProbeToolchain.targetDir("etw-stub"));
            Path source = ProbeToolchain.moduleDir().resolve("src/test/c/etw_stub.c");
            Path lib = dir.resolve("libetwstub.so");
            ProbeToolchain.compile(Arrays.asList("gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-shared",
                    "-fPIC", "-pthread", "-fvisibility=hidden", "-o", lib.toString(), source.toString()), dir);
            built = lib;
        }
        return built;
    }

    /** Why the stub is not built on {@code osName}, or null on Linux. */
    static String notBuiltHere(String osName) {
        if (osName.toLowerCase(java.util.Locale.ROOT).startsWith("linux")) {
            return null;
        }
        return "the gcc stub of advapi32 (src/test/c/etw_stub.c) is built as an ELF shared object with GCC's"
                + " visibility attributes under -Werror, for Linux hosts; this is " + osName
                + ": stub tests skipped (the tests tagged windows run against the real advapi32 instead)";
    }

    /** The stub bound through the production mapping, per-event calls over JNA direct mapping. */
    static NativeEtw etw() throws IOException {
        return etw(EventCrossing.JNA_DIRECT);
    }

    /** The stub bound through the production mapping, per-event calls over {@code crossing} (FFM or JNA direct). */
    static synchronized NativeEtw etw(String crossing) throws IOException {
        NativeEtw etw = bindings.get(crossing);
        if (etw == null) {
            etw = JnaNativeEtw.load(build().toString(), crossing);
            bindings.put(crossing, etw);
        }
        return etw;
    }

    static synchronized Recorder recorder() throws IOException {
        if (recorder == null) {
            recorder = Native.load(build().toString(), Recorder.class);
        }
        return recorder;
    }

    /** Blob {@code index} of the latest call of {@code function}, or null when it was not recorded. */
    static byte[] blob(String function, int index) throws IOException {
        int n = recorder().stub_blob(function, index, null, 0);
        if (n < 0) {
            return null;
        }
        byte[] out = new byte[n];
        recorder().stub_blob(function, index, out, n);
        return out;
    }

    static byte[] utf16(String s) {
        return s.getBytes(StandardCharsets.UTF_16LE);
    }

    /** A NUL-terminated UTF-16LE string in native memory (LPCWSTR), written by hand: JNA's wchar_t is 4 bytes on Linux. */
    static Memory wide(String s) {
        byte[] b = utf16(s);
        Memory m = new Memory(b.length + 2L);
        m.clear();
        m.write(0, b, 0, b.length);
        return m;
    }

    static Memory guid(UUID u) {
        Memory m = new Memory(16);
        m.write(0, Guids.toBytes(u), 0, 16);
        return m;
    }

    static Memory zeroed(long size) {
        Memory m = new Memory(size);
        m.clear();
        return m;
    }

    static long address(Pointer p) {
        return Pointer.nativeValue(p);
    }
}
