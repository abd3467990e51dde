package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every rule of SessionConfigValidator, at its boundary, with the exact message. */
class SessionConfigValidatorTest {

    @TempDir
    Path dir;

    private Path etl;

    @BeforeEach
    void setUp() {
        etl = dir.resolve("trace.etl");
    }

    /** Defaults plus a log file in an existing folder: the smallest valid configuration. */
    private SessionConfig.Builder valid() {
        return SessionConfig.builder().logFile(etl);
    }

    private static ConfigException refused(SessionConfig.Builder b) {
        return assertThrows(ConfigException.class, b::build);
    }

    // ---- defaults ------------------------------------------------------------------------------

    @Test
    void defaultsWithAFileAreValidAndQuiet() {
        SessionConfig c = valid().build();
        assertEquals("jetw", c.sessionName());
        assertEquals(64, c.bufferSizeKb());
        assertEquals(8, c.minimumBuffers());
        assertEquals(128, c.maximumBuffers());
        assertEquals(0, c.maximumFileSizeMb());
        assertEquals(EnumSet.of(LogFileMode.SEQUENTIAL), c.modes());
        assertEquals(1, c.flushTimerSeconds());
        assertTrue(c.kernelFlags().isEmpty());
        assertEquals(ClockType.QPC, c.clock());
        assertEquals(OrphanPolicy.RESTART, c.orphanPolicy());
        assertEquals(false, c.realTimeWithoutConsumer());
        assertEquals(List.of(), c.warnings());
    }

    @Test
    void defaultsWithoutAFileAreRefusedBecauseSequentialWritesAFile() {
        assertEquals("file=(none): mode=sequential writes a log file; give file=<path>.etl, or use mode=real-time"
                + " or mode=buffering", refused(SessionConfig.builder()).getMessage());
    }

    @Test
    void anEmptyModeSetIsSequentialAndNeedsAFileToo() {
        ConfigException e = refused(SessionConfig.builder().modes(EnumSet.noneOf(LogFileMode.class)));
        assertEquals("file", e.key());
        assertTrue(e.getMessage().startsWith("file=(none): mode=sequential writes a log file"), e.getMessage());
        assertEquals(0, valid().modes(EnumSet.noneOf(LogFileMode.class)).build().logFileModeBits());
    }

    // ---- names ---------------------------------------------------------------------------------

    @Test
    void sessionNameMustBeNonEmpty() {
        assertEquals("name=: allowed a non-empty session name of at most 1024 characters",
                refused(valid().sessionName("")).getMessage());
        assertEquals("name", refused(valid().sessionName("   ")).key());
        assertEquals("name=null: allowed a non-empty session name of at most 1024 characters",
                refused(valid().sessionName(null)).getMessage());
    }

    @Test
    void sessionNameIsLimitedTo1024Characters() {
        assertEquals(1024, valid().sessionName("n".repeat(1024)).build().sessionName().length());
        ConfigException e = refused(valid().sessionName("n".repeat(1025)));
        assertEquals("name", e.key());
        assertTrue(e.getMessage().endsWith("... (1025 characters): allowed a non-empty session name of at most 1024"
                + " characters"), e.getMessage());
    }

    @Test
    void logFilePathIsLimitedTo1024Characters() {
        String prefix = dir.toString() + "/";
        String ok = prefix + "f".repeat(1024 - prefix.length() - 4) + ".etl";
        assertEquals(1024, ok.length());
        // Too long for a real file system name part, but validation looks only at the text and the folder.
        assertEquals(ok, valid().logFile(Paths.get(ok)).build().logFile().toString());
        ConfigException e = refused(valid().logFile(Paths.get(prefix + "f".repeat(1025 - prefix.length() - 4) + ".etl")));
        assertEquals("file", e.key());
        assertTrue(e.getMessage().contains("(1025 characters): allowed a non-empty path of at most 1024 characters"),
                e.getMessage());
    }

    @Test
    void logFilePathMustBeNonEmpty() {
        assertEquals("file=: allowed a non-empty path of at most 1024 characters",
                refused(valid().logFile(Paths.get(""))).getMessage());
    }

    // ---- buffer size ---------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, 0, 3, 16385, Integer.MAX_VALUE})
    void bufferSizeOutside4To16384KbIsRefused(int kb) {
        assertEquals("bufferSize=" + kb + ": allowed 4-16384 KB", refused(valid().bufferSizeKb(kb)).getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 64, 255, 16384})
    void bufferSizeInsideTheRangeIsAccepted(int kb) {
        assertEquals(kb, valid().bufferSizeKb(kb).build().bufferSizeKb());
    }

    @Test
    void bufferSizeBelow256KbHasNoWarning() {
        assertEquals(List.of(), valid().bufferSizeKb(255).build().warnings());
    }

    @Test
    void bufferSizeFrom256KbIsFlaggedDiagnosticOnly() {
        List<String> w = valid().bufferSizeKb(256).build().warnings();
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("bufferSize=256: buffers of 256 KB or more are diagnostic-only"), w.get(0));
    }

    @Test
    void bufferSizeUpTo1024KbKeepsLayout15() {
        List<String> w = valid().bufferSizeKb(1024).build().warnings();
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("diagnostic-only"), w.get(0));
    }

    @Test
    void bufferSizeAbove1024KbWarnsAboutWindows8AndLayout20() {
        List<String> w = valid().bufferSizeKb(1025).build().warnings();
        assertEquals(2, w.size(), w.toString());
        assertEquals("bufferSize=1025: more than 1024 KB needs Windows 8+ and makes a 2.0-layout file older tools"
                + " can't read", w.get(1));
    }

    // ---- buffer counts, sizes, timers ------------------------------------------------------------

    @Test
    void minimumBuffersMustBeAtLeastOne() {
        assertEquals("minBuffers=0: allowed 1 or more (ETW raises it to 2 per logical processor itself)",
                refused(valid().minimumBuffers(0)).getMessage());
        assertEquals(1, valid().minimumBuffers(1).build().minimumBuffers());
    }

    @Test
    void maximumBuffersMustBeAtLeastOne() {
        assertEquals("maxBuffers=0: allowed 1 or more, and at least minBuffers",
                refused(valid().minimumBuffers(1).maximumBuffers(0)).getMessage());
    }

    @Test
    void maximumBuffersMustNotBeBelowMinimumBuffers() {
        assertEquals("maxBuffers=7: allowed at least minBuffers (8)",
                refused(valid().minimumBuffers(8).maximumBuffers(7)).getMessage());
        SessionConfig equal = valid().minimumBuffers(8).maximumBuffers(8).build();
        assertEquals(8, equal.maximumBuffers());
    }

    @Test
    void bufferingModeIgnoresMaximumBuffersSoALargeRingIsAccepted() {
        SessionConfig c = SessionConfig.builder().modes(LogFileMode.BUFFERING).minimumBuffers(300).maximumBuffers(128)
                .build();
        assertEquals(300, c.minimumBuffers());
    }

    @Test
    void maximumFileSizeMustNotBeNegative() {
        assertEquals("maxFileSize=-1: allowed 0 (no limit) or a size in MB",
                refused(valid().maximumFileSizeMb(-1)).getMessage());
        assertEquals(0, valid().maximumFileSizeMb(0).build().maximumFileSizeMb());
    }

    @Test
    void flushTimerMustNotBeNegative() {
        assertEquals("flushTimer=-1: allowed 0 (flush only full buffers) or whole seconds",
                refused(valid().flushTimerSeconds(-1)).getMessage());
        assertEquals(0, valid().flushTimerSeconds(0).build().flushTimerSeconds());
    }

    @Test
    void clockAndOrphanPolicyMustBeSet() {
        assertEquals("clock=null: allowed qpc, system or cycle", refused(valid().clock(null)).getMessage());
        assertEquals("orphan=null: allowed restart, reuse or fail", refused(valid().orphanPolicy(null)).getMessage());
    }

    @Test
    void theCycleClockIsAcceptedWithAWarning() {
        assertEquals(List.of("clock=cycle: Microsoft calls the CPU cycle counter unreliable (it changes frequency and"
                + " stops in some power states) and not for production; qpc is the default"),
                valid().clock(ClockType.CYCLE).build().warnings());
        assertEquals(List.of(), valid().clock(ClockType.SYSTEM).build().warnings());
    }

    // ---- mode combinations -----------------------------------------------------------------------

    static Stream<Arguments> exclusivePairs() {
        return Stream.of(
                Arguments.of(LogFileMode.SEQUENTIAL, LogFileMode.CIRCULAR),
                Arguments.of(LogFileMode.SEQUENTIAL, LogFileMode.NEWFILE),
                Arguments.of(LogFileMode.CIRCULAR, LogFileMode.NEWFILE),
                Arguments.of(LogFileMode.APPEND, LogFileMode.CIRCULAR),
                Arguments.of(LogFileMode.APPEND, LogFileMode.NEWFILE),
                Arguments.of(LogFileMode.APPEND, LogFileMode.REAL_TIME),
                Arguments.of(LogFileMode.APPEND, LogFileMode.PRIVATE),
                Arguments.of(LogFileMode.APPEND, LogFileMode.PRIVATE_IN_PROC),
                Arguments.of(LogFileMode.BUFFERING, LogFileMode.SEQUENTIAL),
                Arguments.of(LogFileMode.BUFFERING, LogFileMode.CIRCULAR),
                Arguments.of(LogFileMode.BUFFERING, LogFileMode.APPEND),
                Arguments.of(LogFileMode.BUFFERING, LogFileMode.NEWFILE),
                Arguments.of(LogFileMode.BUFFERING, LogFileMode.PREALLOCATE),
                Arguments.of(LogFileMode.BUFFERING, LogFileMode.REAL_TIME),
                Arguments.of(LogFileMode.REAL_TIME, LogFileMode.PRIVATE),
                Arguments.of(LogFileMode.REAL_TIME, LogFileMode.PRIVATE_IN_PROC),
                Arguments.of(LogFileMode.PREALLOCATE, LogFileMode.PRIVATE),
                Arguments.of(LogFileMode.PREALLOCATE, LogFileMode.PRIVATE_IN_PROC),
                Arguments.of(LogFileMode.NEWFILE, LogFileMode.PRIVATE),
                Arguments.of(LogFileMode.NEWFILE, LogFileMode.PRIVATE_IN_PROC),
                Arguments.of(LogFileMode.SYSTEM_LOGGER, LogFileMode.PRIVATE),
                Arguments.of(LogFileMode.SYSTEM_LOGGER, LogFileMode.PRIVATE_IN_PROC));
    }

    @ParameterizedTest
    @MethodSource("exclusivePairs")
    void mutuallyExclusiveModesAreRefused(LogFileMode a, LogFileMode b) {
        // Everything each mode needs on its own is present, so only the combination can be the reason.
        SessionConfig.Builder builder = valid().modes(a, b).maximumFileSizeMb(100).clock(ClockType.SYSTEM)
                .realTimeWithoutConsumer(true).logFile(dir.resolve("trace%d.etl"));
        ConfigException e = refused(builder);
        assertEquals("mode", e.key());
        assertEquals(SessionConfigParser.modeList(EnumSet.of(a, b)), e.value());
        assertTrue(e.getMessage().contains(a.optionName() + " and " + b.optionName() + " exclude each other: "),
                e.getMessage());
    }

    @Test
    void sequentialWithCircularNamesBothAndSaysWhy() {
        assertEquals("mode=sequential+circular: sequential and circular exclude each other: sequential stops at"
                        + " maxFileSize, circular overwrites the oldest events; choose one",
                refused(valid().modes(LogFileMode.SEQUENTIAL, LogFileMode.CIRCULAR).maximumFileSizeMb(10)).getMessage());
    }

    /** Each mode alone, given what it needs, is valid: the exclusions above are not refusing everything. */
    @ParameterizedTest
    @EnumSource(LogFileMode.class)
    void everyModeAloneIsAcceptedWithItsPrerequisites(LogFileMode mode) {
        SessionConfig.Builder b = valid().modes(mode).maximumFileSizeMb(100).logFile(dir.resolve("trace%d.etl"));
        if (mode == LogFileMode.APPEND) {
            b.clock(ClockType.SYSTEM);
        }
        if (mode == LogFileMode.REAL_TIME) {
            b.realTimeWithoutConsumer(true);
        }
        assertEquals(EnumSet.of(mode), b.build().modes());
    }

    static Stream<Arguments> allowedCombinations() {
        return Stream.of(
                Arguments.of(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.REAL_TIME)),
                Arguments.of(EnumSet.of(LogFileMode.CIRCULAR, LogFileMode.REAL_TIME)),
                Arguments.of(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.APPEND)),
                Arguments.of(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.PREALLOCATE)),
                Arguments.of(EnumSet.of(LogFileMode.CIRCULAR, LogFileMode.PREALLOCATE)),
                Arguments.of(EnumSet.of(LogFileMode.NEWFILE, LogFileMode.PREALLOCATE)),
                Arguments.of(EnumSet.of(LogFileMode.PRIVATE, LogFileMode.PRIVATE_IN_PROC, LogFileMode.SEQUENTIAL)),
                Arguments.of(EnumSet.of(LogFileMode.PRIVATE_IN_PROC, LogFileMode.CIRCULAR)),
                Arguments.of(EnumSet.of(LogFileMode.PRIVATE, LogFileMode.BUFFERING)),
                Arguments.of(EnumSet.of(LogFileMode.SYSTEM_LOGGER, LogFileMode.SEQUENTIAL,
                        LogFileMode.INDEPENDENT_SESSION, LogFileMode.NO_PER_PROCESSOR_BUFFERING)),
                Arguments.of(EnumSet.of(LogFileMode.BUFFERING, LogFileMode.NO_PER_PROCESSOR_BUFFERING)));
    }

    @ParameterizedTest
    @MethodSource("allowedCombinations")
    void documentedCombinationsAreAccepted(EnumSet<LogFileMode> modes) {
        SessionConfig.Builder b = valid().modes(modes).maximumFileSizeMb(100).realTimeWithoutConsumer(true)
                .logFile(dir.resolve(modes.contains(LogFileMode.NEWFILE) ? "trace%d.etl" : "trace.etl"));
        if (modes.contains(LogFileMode.APPEND)) {
            b.clock(ClockType.SYSTEM);
        }
        assertEquals(modes, b.build().modes());
    }

    // ---- mode requirements -----------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = LogFileMode.class, names = {"CIRCULAR", "NEWFILE", "PREALLOCATE"})
    void sizedModesNeedAMaximumFileSize(LogFileMode mode) {
        SessionConfig.Builder b = valid().modes(mode).logFile(dir.resolve("trace%d.etl"));
        assertEquals("maxFileSize=0: mode=" + mode.optionName() + " needs maxFileSize > 0 (MB), e.g. maxFileSize=100m",
                refused(b.maximumFileSizeMb(0)).getMessage());
        assertEquals(1, b.maximumFileSizeMb(1).build().maximumFileSizeMb());
    }

    @Test
    void sequentialNeedsNoMaximumFileSize() {
        assertEquals(0, valid().modes(LogFileMode.SEQUENTIAL).maximumFileSizeMb(0).build().maximumFileSizeMb());
    }

    @ParameterizedTest
    @EnumSource(value = ClockType.class, names = {"QPC", "CYCLE"})
    void appendNeedsTheSystemClock(ClockType clock) {
        assertEquals("clock=" + clock.optionName() + ": mode=append needs clock=system; with another clock the"
                        + " appended events get wrong timestamps (Logging Mode Constants)",
                refused(valid().modes(LogFileMode.APPEND).clock(clock)).getMessage());
        assertEquals(ClockType.SYSTEM, valid().modes(LogFileMode.APPEND).clock(ClockType.SYSTEM).build().clock());
    }

    @Test
    void newfileNeedsPercentDInTheFileName() {
        SessionConfig.Builder b = valid().modes(LogFileMode.NEWFILE).maximumFileSizeMb(10);
        assertEquals("file=" + etl + ": mode=newfile needs %d in the file name, e.g. trace%d.etl: ETW replaces it with"
                + " each new file's number", refused(b).getMessage());
        assertTrue(b.logFile(dir.resolve("trace%d.etl")).build().has(LogFileMode.NEWFILE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"trace%.etl", "trace%s.etl", "trace%D.etl", "trace d.etl"})
    void newfileNeedsExactlyPercentD(String name) {
        ConfigException e = refused(valid().modes(LogFileMode.NEWFILE).maximumFileSizeMb(10).logFile(dir.resolve(name)));
        assertTrue(e.getMessage().contains("needs %d in the file name"), e.getMessage());
    }

    @Test
    void newfileLooksForPercentDInTheFileNameNotTheFolder() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("run%d"));
        ConfigException e = refused(valid().modes(LogFileMode.NEWFILE).maximumFileSizeMb(10)
                .logFile(folder.resolve("trace.etl")));
        assertTrue(e.getMessage().contains("needs %d in the file name"), e.getMessage());
    }

    @Test
    void newfileForTheKernelLoggerIsAcceptedWithAWarning() {
        SessionConfig c = valid().providerEnabled(false).sessionName("NT Kernel Logger").modes(LogFileMode.NEWFILE).maximumFileSizeMb(10)
                .logFile(dir.resolve("k%d.etl")).build();
        assertEquals(List.of("mode=newfile: Microsoft advises against newfile for the NT Kernel Logger session"),
                c.warnings());
    }

    // ---- real time -----------------------------------------------------------------------------

    @Test
    void realTimeIsRefusedWithoutAConsumerAndSaysWhy() {
        ConfigException e = refused(valid().modes(LogFileMode.REAL_TIME));
        assertEquals("mode", e.key());
        assertEquals("real-time", e.value());
        assertTrue(e.getMessage().contains("STATUS_LOG_FILE_FULL"), e.getMessage());
        assertTrue(e.getMessage().contains("realTimeWithoutConsumer=true"), e.getMessage());
    }

    @Test
    void realTimeIsRefusedAlsoWhenCombinedWithAFileMode() {
        assertEquals("sequential+real-time",
                refused(valid().modes(LogFileMode.SEQUENTIAL, LogFileMode.REAL_TIME)).value());
    }

    @Test
    void forcedRealTimeNeedsNoFileAndWarns() {
        SessionConfig c = SessionConfig.builder().modes(LogFileMode.REAL_TIME).realTimeWithoutConsumer(true).build();
        assertEquals(null, c.logFile());
        assertEquals(1, c.warnings().size(), c.warnings().toString());
        assertTrue(c.warnings().get(0).startsWith("mode=real-time: forced by realTimeWithoutConsumer=true"));
    }

    @Test
    void realTimeWithoutConsumerAloneChangesNothing() {
        SessionConfig c = valid().realTimeWithoutConsumer(true).build();
        assertEquals(List.of(), c.warnings());
    }

    @Test
    void bufferingNeedsNoFile() {
        assertEquals(null, SessionConfig.builder().modes(LogFileMode.BUFFERING).build().logFile());
    }

    // ---- kernel flags ------------------------------------------------------------------------------

    @Test
    void kernelFlagsAreRefusedInAnOrdinarySession() {
        assertEquals("kernel=process+thread: kernel flags need mode=system-logger (Windows 8+) or name=NT Kernel Logger",
                refused(valid().kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD))).getMessage());
    }

    @Test
    void kernelFlagsAreAcceptedInASystemLogger() {
        SessionConfig c = valid().modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER)
                .kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.CSWITCH)).build();
        assertEquals(0x11, c.kernelFlagBits());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NT Kernel Logger", "nt kernel logger", "NT KERNEL LOGGER"})
    void kernelFlagsAreAcceptedInTheKernelLoggerSessionWhateverTheCase(String name) {
        SessionConfig c = valid().providerEnabled(false).sessionName(name).kernelFlags(EnumSet.of(KernelFlag.DISK_IO)).build();
        assertEquals(EnumSet.of(KernelFlag.DISK_IO), c.kernelFlags());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NT Kernel Logger", "nt kernel logger"})
    void theKernelLoggerIsRefusedWheneverJetwsProviderIsToBeEnabledThere(String name) {
        ConfigException e = refused(valid().sessionName(name).kernelFlags(EnumSet.of(KernelFlag.PROCESS)));
        assertEquals("name=" + name + ": jetw's provider cannot log to the NT Kernel Logger (ETW refuses its events"
                + " there); choose another name and add kernel=<flags>, which puts kernel events in jetw's own"
                + " session", e.getMessage());
        assertEquals("name", refused(valid().sessionName(name)).key());
        assertFalse(valid().providerEnabled(false).sessionName(name).build().providerEnabled());
    }

    @Test
    void systemClockInASystemLoggerIsAcceptedWithAWarning() {
        SessionConfig c = valid().clock(ClockType.SYSTEM).modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER)
                .kernelFlags(EnumSet.of(KernelFlag.PROCESS)).build();
        assertEquals(1, c.warnings().size(), c.warnings().toString());
        assertTrue(c.warnings().get(0).startsWith("clock=system with system-logger: before Windows 10 1703"),
                c.warnings().get(0));
        assertEquals(List.of(), valid().clock(ClockType.SYSTEM).build().warnings());
    }

    @Test
    void aNameThatOnlyResemblesTheKernelLoggerDoesNotAllowKernelFlags() {
        assertEquals("kernel", refused(valid().sessionName("NT Kernel Logger2")
                .kernelFlags(EnumSet.of(KernelFlag.DISK_IO))).key());
    }

    @ParameterizedTest
    @EnumSource(value = LogFileMode.class, names = {"PRIVATE", "PRIVATE_IN_PROC"})
    void privateSessionsCannotHaveKernelFlags(LogFileMode privateMode) {
        assertEquals("kernel=process: a private session cannot receive kernel events; drop kernel= or mode=private",
                refused(valid().modes(privateMode).kernelFlags(EnumSet.of(KernelFlag.PROCESS))).getMessage());
    }

    @Test
    void theKernelLoggerCannotBePrivate() {
        ConfigException e = refused(valid().sessionName("NT Kernel Logger").modes(LogFileMode.PRIVATE_IN_PROC));
        assertEquals("name", e.key());
        assertTrue(e.getMessage().contains("cannot be private"), e.getMessage());
    }

    @Test
    void theKernelLoggerIsNotASystemLogger() {
        ConfigException e = refused(valid().sessionName("NT Kernel Logger")
                .modes(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER));
        assertEquals("mode=sequential+system-logger: system-logger is for sessions other than the NT Kernel Logger;"
                + " use either mode=system-logger or name=NT Kernel Logger", e.getMessage());
    }

    // ---- log file ----------------------------------------------------------------------------------

    @Test
    void theLogFilesFolderMustExist() {
        Path missing = dir.resolve("missing").resolve("trace.etl");
        Path folder = missing.getParent();
        assertEquals("file=" + missing + ": " + SessionConfigValidator.noFolder(folder, FileError.WINDOWS),
                refused(valid().logFile(missing)).getMessage());
        assertEquals("the folder " + folder + " does not exist; ETW does not create it (StartTrace fails with"
                + " ERROR_BAD_PATHNAME): create it first", SessionConfigValidator.noFolder(folder, true));
        assertEquals("the folder " + folder + " does not exist (ENOENT); jetw does not create folders: create it first",
                SessionConfigValidator.noFolder(folder, false));
    }

    @Test
    void theLogFilesFolderMustBeAFolder() throws IOException {
        Path notAFolder = Files.createFile(dir.resolve("plain"));
        String errno = FileError.WINDOWS ? "" : " (ENOTDIR)";
        Path file = notAFolder.resolve("trace.etl");
        assertEquals("file=" + file + ": " + notAFolder + " is not a folder" + errno, refused(valid().logFile(file)).getMessage());
        Path deeper = notAFolder.resolve("sub").resolve("trace.etl"); // not "create it first": it cannot be created
        assertEquals("file=" + deeper + ": " + notAFolder + " is not a folder" + errno, refused(valid().logFile(deeper)).getMessage());
    }

    @Test
    void theLogFileMustNotBeAFolder() {
        ConfigException e = refused(valid().logFile(dir));
        assertEquals("file", e.key());
        assertTrue(e.getMessage().contains("this is a folder; give a file path"), e.getMessage());
    }

    @Test
    void anExistingLogFileIsAccepted() throws IOException {
        Files.createFile(etl);
        assertEquals(etl, valid().build().logFile());
    }

    @Test
    void aRelativeFileNameUsesTheWorkingFolder() {
        assertEquals(Paths.get("relative.etl"), valid().logFile(Paths.get("relative.etl")).build().logFile());
    }

    @Test
    void aFileNotEndingInEtlIsAcceptedWithAWarning() {
        Path txt = dir.resolve("trace.txt");
        assertEquals(List.of("file=" + txt + ": ETW log files should end in .etl; tools look for that extension"),
                valid().logFile(txt).build().warnings());
        assertEquals(List.of(), valid().logFile(dir.resolve("TRACE.ETL")).build().warnings());
    }

    @Test
    void aWarningDoesNotStopTheBuildAndErrorsComeFirstInDocumentedOrder() {
        // Two violations: the name is checked before the buffer size.
        assertEquals("name", refused(valid().sessionName("").bufferSizeKb(1)).key());
        // Buffer size before the missing file.
        assertEquals("bufferSize", refused(SessionConfig.builder().bufferSizeKb(1)).key());
    }
}
