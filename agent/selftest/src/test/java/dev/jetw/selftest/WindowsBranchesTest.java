package dev.jetw.selftest;

import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;
import dev.jetw.etw.windows.WindowsVersion;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Windows-only branches of the scenario (elevation, kernel, tracerpt), run here over the portable
 * backend under the name "windows": they must pass when Windows does the right thing and fail when it
 * does not. A kernel session "refused" below is the portable backend made to answer as Windows would.
 */
class WindowsBranchesTest {

    @TempDir
    Path dir;

    private ProofScenario scenario(EtwBackend backend, Boolean elevated) {
        return new ProofScenario(backend, dir, elevated, ThreadIds.forBackend("portable"));
    }

    @Test
    void accessDeniedForAKernelSessionPasses() {
        StepResult r = scenario(new WindowsNamed(Win32Error.ACCESS_DENIED), Boolean.FALSE).notElevated();
        assertEquals(StepResult.Verdict.PASS, r.verdict(), r.toString());
        assertTrue(r.summary().startsWith("a kernel session is refused with ERROR_ACCESS_DENIED (5): StartTraceW failed"), r.summary());
    }

    @Test
    void aKernelSessionStartedWithoutElevationFails() {
        StepResult r = scenario(new WindowsNamed(0), Boolean.FALSE).notElevated();
        assertEquals(StepResult.Verdict.FAIL, r.verdict(), r.toString());
        assertEquals("a kernel session started without elevation", r.summary());
    }

    @Test
    void anotherErrorThanAccessDeniedFails() {
        StepResult r = scenario(new WindowsNamed(Win32Error.NO_SYSTEM_RESOURCES), Boolean.FALSE).notElevated();
        assertEquals(StepResult.Verdict.FAIL, r.verdict(), r.toString());
        assertEquals("refused with ERROR_NO_SYSTEM_RESOURCES (1450), expected ERROR_ACCESS_DENIED (5)", r.summary());
    }

    @Test
    void elevatedOrUnknownSkipsTheAccessDeniedPath() {
        assertEquals("this account is elevated: the access-denied path cannot be shown",
                scenario(new WindowsNamed(0), Boolean.TRUE).notElevated().summary());
        assertEquals("could not tell whether this account is elevated (whoami /groups)",
                scenario(new WindowsNamed(0), null).notElevated().summary());
    }

    @Test
    void kernelAndTracerptNeedElevation() {
        StepResult kernel = scenario(new WindowsNamed(0), Boolean.FALSE).kernel();
        assertEquals(StepResult.Verdict.SKIP, kernel.verdict(), kernel.toString());
        assertTrue(kernel.summary().contains("Windows 8") || kernel.summary().equals("kernel flags need an elevated administrator"),
                kernel.summary());
        StepResult tracerpt = scenario(new WindowsNamed(0), Boolean.FALSE).tracerpt();
        assertEquals("mofcomp publishes into root\\wmi, which needs an elevated administrator", tracerpt.summary());
    }

    @Test
    void aKernelFileWithoutThreadRecordsFails() {
        Assumptions.assumeTrue(WindowsVersion.current().hasSystemLoggerMode(), "os.version reads as a Windows before 8 here");
        StepResult r = scenario(new WindowsNamed(0), Boolean.TRUE).kernel();
        assertEquals(StepResult.Verdict.FAIL, r.verdict(), r.toString());
        assertTrue(r.summary().startsWith("no kernel thread record names jetw's writer thread "), r.summary());
        // On Linux as root the portable backend does write kernel records (docs/linux-kernel-events.md), but they name
        // OS threads, and this step looks for the header thread ids of jetw's events: Java ids in portable files.
        assertTrue(r.details().stream().anyMatch(d -> d.matches("\\d+ kernel records, \\d+ thread start/end/rundown, \\d+"
                + " context switches")), r.details().toString());
    }

    @Test
    void tracerptNeedsAPassingFileTraceAndTheTools() {
        ProofScenario s = scenario(new WindowsNamed(0), Boolean.TRUE);
        assertEquals("needs a trace from a passing file-trace step", s.tracerpt().summary());
        assertEquals(StepResult.Verdict.PASS, s.fileTrace().verdict());
        StepResult r = s.tracerpt();
        // No mofcomp on this host: the step fails naming it (on Windows it is in System32).
        assertEquals(StepResult.Verdict.FAIL, r.verdict(), r.toString());
        assertTrue(r.summary().contains("mofcomp"), r.summary());
    }

    /** The portable backend answering to "windows"; kernel sessions refused with {@code kernelError} when non-zero. */
    private static final class WindowsNamed implements EtwBackend {
        private final EtwBackend portable = EtwBackends.create("portable");
        private final int kernelError;

        WindowsNamed(int kernelError) {
            this.kernelError = kernelError;
        }

        @Override
        public String name() {
            return "windows";
        }

        @Override
        public SessionStats startSession(SessionConfig config) throws EtwException {
            if (kernelError != 0 && config.kernelFlagBits() != 0) {
                throw new EtwException("StartTraceW", kernelError, "session '" + config.sessionName() + "'");
            }
            return portable.startSession(config);
        }

        @Override
        public SessionStats querySession(String sessionName) throws EtwException {
            return portable.querySession(sessionName);
        }

        @Override
        public SessionStats flushSession(String sessionName) throws EtwException {
            return portable.flushSession(sessionName);
        }

        @Override
        public SessionStats updateSession(SessionConfig config) throws EtwException {
            return portable.updateSession(config);
        }

        @Override
        public SessionStats stopSession(String sessionName) throws EtwException {
            return portable.stopSession(sessionName);
        }

        @Override
        public List<String> listSessions() throws EtwException {
            return portable.listSessions();
        }

        @Override
        public ProviderBackend registerProvider(UUID controlGuid, List<UUID> eventClassGuids, EnableListener listener)
                throws EtwException {
            return portable.registerProvider(controlGuid, eventClassGuids, listener);
        }

        @Override
        public void enableProvider(String sessionName, UUID controlGuid, int level, int enableFlags) throws EtwException {
            portable.enableProvider(sessionName, controlGuid, level, enableFlags);
        }

        @Override
        public void disableProvider(String sessionName, UUID controlGuid) throws EtwException {
            portable.disableProvider(sessionName, controlGuid);
        }
    }
}
