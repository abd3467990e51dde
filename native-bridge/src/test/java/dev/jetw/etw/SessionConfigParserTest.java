package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SessionConfigParserTest {

    @TempDir
    Path dir;

    private Path etl;
    private String file;

    @BeforeEach
    void setUp() {
        etl = dir.resolve("trace.etl");
        file = "file=" + etl;
    }

    private static ConfigException refused(String options) {
        return assertThrows(ConfigException.class, () -> SessionConfig.parse(options));
    }

    private static Map.Entry<String, String> e(String k, String v) {
        return new SimpleImmutableEntry<>(k, v);
    }

    // ---- keys and defaults -------------------------------------------------------------------------

    @Test
    void onlyTheFileGivenLeavesEveryOtherKeyAtItsDefault() {
        SessionConfig c = SessionConfig.parse(file);
        assertEquals(SessionConfigParser.toOptions(SessionConfig.builder().logFile(etl).build()),
                SessionConfigParser.toOptions(c));
        assertEquals("name=jetw,file=" + etl + ",bufferSize=64,minBuffers=8,maxBuffers=128,maxFileSize=0,"
                + "mode=sequential,flushTimer=1,clock=qpc,orphan=restart,realTimeWithoutConsumer=false",
                SessionConfigParser.toOptions(c));
    }

    @Test
    void nullOrBlankOptionsAreAllDefaults() {
        SessionConfig.Builder fromNull = SessionConfigParser.parse(null);
        SessionConfig.Builder fromBlank = SessionConfigParser.parse(" , ");
        assertEquals(SessionConfigParser.toOptions(fromNull.logFile(etl).build()),
                SessionConfigParser.toOptions(fromBlank.logFile(etl).build()));
        assertEquals("jetw", fromBlank.build().sessionName());
    }

    @Test
    void everyKeyIsParsed() {
        SessionConfig c = SessionConfig.parse("name=myapp," + file + ",bufferSize=128,minBuffers=4,maxBuffers=64,"
                + "maxFileSize=200,mode=circular+system-logger,flushTimer=5,kernel=process+cswitch,clock=system,"
                + "orphan=fail,realTimeWithoutConsumer=true");
        assertEquals("myapp", c.sessionName());
        assertEquals(etl, c.logFile());
        assertEquals(128, c.bufferSizeKb());
        assertEquals(4, c.minimumBuffers());
        assertEquals(64, c.maximumBuffers());
        assertEquals(200, c.maximumFileSizeMb());
        assertEquals(EnumSet.of(LogFileMode.CIRCULAR, LogFileMode.SYSTEM_LOGGER), c.modes());
        assertEquals(5, c.flushTimerSeconds());
        assertEquals(EnumSet.of(KernelFlag.PROCESS, KernelFlag.CSWITCH), c.kernelFlags());
        assertEquals(ClockType.SYSTEM, c.clock());
        assertEquals(OrphanPolicy.FAIL, c.orphanPolicy());
        assertTrue(c.realTimeWithoutConsumer());
    }

    @Test
    void keysAreCaseInsensitiveAndBlanksAroundKeysAndValuesAreIgnored() {
        SessionConfig c = SessionConfig.parse(" BUFFERSIZE = 32 , Kernel=Process , MODE=System-Logger+SEQUENTIAL, "
                + "ORPHAN=Reuse, Clock=CYCLE, FILE=" + etl);
        assertEquals(32, c.bufferSizeKb());
        assertEquals(EnumSet.of(KernelFlag.PROCESS), c.kernelFlags());
        assertEquals(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER), c.modes());
        assertEquals(OrphanPolicy.REUSE, c.orphanPolicy());
        assertEquals(ClockType.CYCLE, c.clock());
    }

    @Test
    void isSessionKeyKnowsEveryKeyInAnyCaseAndNothingElse() {
        for (String k : SessionConfigParser.sessionKeys()) {
            assertTrue(SessionConfigParser.isSessionKey(k), k);
            assertTrue(SessionConfigParser.isSessionKey(k.toUpperCase()), k);
        }
        assertEquals(14, SessionConfigParser.sessionKeys().size());
        assertFalse(SessionConfigParser.isSessionKey("include"));
        assertFalse(SessionConfigParser.isSessionKey("buffer"));
        assertFalse(SessionConfigParser.isSessionKey(null));
        assertEquals("maxFileSize", SessionConfigParser.canonicalKey("MAXFILESIZE"));
    }

    @Test
    void anUnknownKeyIsNamedWithTheAllowedKeys() {
        assertEquals("verbose=true: unknown key; allowed keys: name, file, bufferSize, minBuffers, maxBuffers,"
                + " maxFileSize, mode, flushTimer, kernel, clock, orphan, realTimeWithoutConsumer, overwrite, filePermissions",
                refused("verbose=true," + file).getMessage());
    }

    @Test
    void aMisspelledKeyGetsASuggestion() {
        ConfigException e = refused("bufersize=64," + file);
        assertEquals("bufersize", e.key());
        assertTrue(e.getMessage().startsWith("bufersize=64: unknown key (did you mean bufferSize?); allowed keys: name,"),
                e.getMessage());
    }

    @Test
    void aRepeatedKeyIsRefused() {
        assertEquals("BufferSize=128: given twice (first bufferSize=64); give each key once",
                refused("bufferSize=64,BufferSize=128," + file).getMessage());
    }

    @Test
    void applyRefusesAnUnknownKeyToo() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> SessionConfigParser.apply(SessionConfig.builder(), "include", "com.acme"));
        assertTrue(e.getMessage().startsWith("include=com.acme: unknown key; allowed keys: name"), e.getMessage());
    }

    // ---- sizes and numbers -------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({"64,64", "64k,64", "64K,64", "64kb,64", "64 KB,64", "1m,1024", "1MB,1024", "16m,16384", "4,4"})
    void bufferSizeAcceptsKilobytesAndUnitSuffixes(String written, int kb) {
        assertEquals(kb, SessionConfigParser.parse("bufferSize=" + written).bufferSizeKb);
    }

    @ParameterizedTest
    @CsvSource({"100,100", "100m,100", "100MB,100", "2g,2048", "2GB,2048", "1024k,1", "0,0"})
    void maxFileSizeAcceptsMegabytesAndUnitSuffixes(String written, int mb) {
        assertEquals(mb, SessionConfigParser.parse("maxFileSize=" + written).maximumFileSizeMb);
    }

    @Test
    void maxFileSizeMustBeAWholeNumberOfMegabytes() {
        assertEquals("maxFileSize=1000k: allowed 0 (no limit) or a size in MB, written as 100, 100m or 2g"
                + " (a whole number of MB)", refused("maxFileSize=1000k," + file).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "-1", "1.5m", "64x", "k", "64b", "99999999999", "4t"})
    void malformedBufferSizesAreRefusedWithWhatIsAllowed(String written) {
        assertEquals("bufferSize=" + written + ": allowed 4-16384 KB, written as 64, 64k or 1m",
                refused("bufferSize=" + written + "," + file).getMessage());
    }

    @Test
    void aWellFormedBufferSizeOutOfRangeGetsTheValidatorsMessage() {
        assertEquals("bufferSize=20000: allowed 4-16384 KB", refused("bufferSize=20000," + file).getMessage());
        assertEquals("bufferSize=3: allowed 4-16384 KB", refused("bufferSize=3," + file).getMessage());
        assertEquals("bufferSize=16385: allowed 4-16384 KB", refused("bufferSize=16385k," + file).getMessage());
        assertEquals(16384, SessionConfig.parse("bufferSize=16m," + file).bufferSizeKb());
        assertEquals("bufferSize=1048576: allowed 4-16384 KB", refused("bufferSize=1g," + file).getMessage());
    }

    @ParameterizedTest
    @CsvSource({"minBuffers,-1", "minBuffers,x", "maxBuffers,1.5", "maxBuffers,99999999999"})
    void bufferCountsMustBeWholeNumbers(String key, String written) {
        ConfigException e = refused(key + "=" + written + "," + file);
        assertEquals(key, e.key());
        assertEquals(written, e.value());
        assertTrue(e.getMessage().startsWith(key + "=" + written + ": allowed a whole number of buffers"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"0,0", "1,1", "5s,5", "60 S,60"})
    void flushTimerTakesSecondsWithAnOptionalS(String written, int seconds) {
        assertEquals(seconds, SessionConfigParser.parse("flushTimer=" + written).flushTimerSeconds);
    }

    @Test
    void aMalformedFlushTimerIsRefused() {
        assertEquals("flushTimer=1ms: allowed 0 (flush only full buffers) or whole seconds, written as 1 or 1s",
                refused("flushTimer=1ms," + file).getMessage());
    }

    // ---- enumerations ------------------------------------------------------------------------------

    @Test
    void clockOrphanAndBooleanValuesAreChecked() {
        assertEquals("clock=tsc: allowed qpc, system or cycle", refused("clock=tsc," + file).getMessage());
        assertEquals("orphan=kill: allowed restart, reuse or fail", refused("orphan=kill," + file).getMessage());
        assertEquals("realTimeWithoutConsumer=yes: allowed true or false",
                refused("realTimeWithoutConsumer=yes," + file).getMessage());
        assertTrue(SessionConfigParser.parse("realTimeWithoutConsumer=TRUE").realTimeWithoutConsumer);
    }

    @Test
    void anUnknownModeIsNamedWithTheAllowedModes() {
        assertEquals("mode=sequential+ring: unknown mode 'ring'; allowed sequential, circular, append, newfile,"
                + " preallocate, real-time, buffering, private, private-in-proc, system-logger, independent-session,"
                + " no-per-processor-buffering", refused("mode=sequential+ring," + file).getMessage());
    }

    @Test
    void modeNamesAcceptUnderscoresAndNoSeparator() {
        assertEquals(EnumSet.of(LogFileMode.REAL_TIME, LogFileMode.PRIVATE_IN_PROC, LogFileMode.NO_PER_PROCESSOR_BUFFERING),
                SessionConfigParser.parse("mode=real_time+privateinproc+no-per-processor-buffering").modes);
    }

    @Test
    void anUnknownKernelFlagIsNamedWithTheAllowedFlags() {
        ConfigException e = refused("kernel=process,threads," + file);
        assertEquals("kernel", e.key());
        assertEquals("process+threads", e.value());
        assertTrue(e.getMessage().startsWith("kernel=process+threads: unknown kernel flag 'threads'; allowed process,"
                + " thread, image_load,"), e.getMessage());
        assertTrue(e.getMessage().endsWith(", file_io_init, no_sysconfig"), e.getMessage());
    }

    @Test
    void everyKernelFlagHasAnOptionName() {
        StringBuilder all = new StringBuilder("kernel=");
        for (KernelFlag f : KernelFlag.values()) {
            all.append(f.optionName()).append(',');
        }
        assertEquals(EnumSet.allOf(KernelFlag.class), SessionConfigParser.parse(all.toString()).kernelFlags);
    }

    @Test
    void anEmptyListItemIsRefused() {
        ConfigException e = refused("kernel=process++thread,mode=system-logger," + file);
        assertTrue(e.getMessage().startsWith("kernel=process++thread: an empty list item; allowed one or more of process,"),
                e.getMessage());
        assertEquals("mode", refused("mode=," + file).key());
    }

    @Test
    void aModeListReplacesTheDefaultSequential() {
        assertEquals(EnumSet.of(LogFileMode.CIRCULAR),
                SessionConfig.parse("mode=circular,maxFileSize=10," + file).modes());
    }

    // ---- list continuation ---------------------------------------------------------------------------

    @Test
    void bareTokensAfterAListKeyContinueTheList() {
        SessionConfig c = SessionConfig.parse("mode=sequential,system-logger,"
                + "kernel=process,thread,cswitch,disk_io,file_io," + file);
        assertEquals(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.CSWITCH, KernelFlag.DISK_IO,
                KernelFlag.FILE_IO), c.kernelFlags());
        assertEquals(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER), c.modes());
        assertEquals(etl, c.logFile());
    }

    @Test
    void continuationMixesWithPlusSeparatedItems() {
        assertEquals(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.CSWITCH),
                SessionConfigParser.parse("kernel=process+thread,cswitch").kernelFlags);
    }

    @Test
    void tokenizeJoinsContinuedItemsWithPlusAndKeepsOrderAndSpelling() {
        assertEquals(List.of(e("Kernel", "process+thread+cswitch"), e("file", "x.etl"), e("mode", "circular")),
                SessionConfigParser.tokenize("Kernel=process, thread ,cswitch,file=x.etl,mode=circular,"));
    }

    @Test
    void tokenizeWithTheAgentsListKeysContinuesThoseToo() {
        Set<String> listKeys = Set.of("mode", "kernel", "include", "exclude");
        assertEquals(List.of(e("include", "com.acme.*+org.foo.Bar"), e("kernel", "process+thread"),
                        e("exclude", "com.acme.Gen*"), e("bufferSize", "64k")),
                SessionConfigParser.tokenize("include=com.acme.*,org.foo.Bar,kernel=process,thread,"
                        + "exclude=com.acme.Gen*,bufferSize=64k", listKeys));
        // With only the session list keys, the same bare token is an error.
        assertThrows(ConfigException.class, () -> SessionConfigParser.tokenize("include=com.acme.*,org.foo.Bar"));
    }

    @Test
    void tokenizeKeepsRepeatedKeysAndSplitsAtTheFirstEquals() {
        assertEquals(List.of(e("name", "a=b"), e("name", "c")), SessionConfigParser.tokenize("name=a=b,name=c"));
    }

    @Test
    void aBareTokenThatContinuesNoListIsRefused() {
        assertEquals("cswitch=(no value): expected key=value; a bare value may only continue a list key (mode, kernel)",
                refused(file + ",cswitch").getMessage());
        assertEquals("cswitch", refused("kernel=process," + file + ",cswitch").key());
    }

    @Test
    void aValueWithoutAKeyIsRefused() {
        assertEquals("=64: expected key=value; the key is missing", refused("=64").getMessage());
    }

    // ---- round trips -------------------------------------------------------------------------------

    @Test
    void toOptionsParsesBackToTheSameConfiguration() {
        SessionConfig original = SessionConfig.builder().sessionName("round trip").logFile(dir.resolve("r%d.etl"))
                .bufferSizeKb(512).minimumBuffers(3).maximumBuffers(9).maximumFileSizeMb(77)
                .modes(LogFileMode.NEWFILE, LogFileMode.SYSTEM_LOGGER, LogFileMode.INDEPENDENT_SESSION)
                .flushTimerSeconds(0).kernelFlags(EnumSet.of(KernelFlag.NO_SYSCONFIG, KernelFlag.PROFILE))
                .clock(ClockType.CYCLE).orphanPolicy(OrphanPolicy.REUSE).build();
        String options = SessionConfigParser.toOptions(original);
        SessionConfig back = SessionConfig.parse(options);
        assertEquals(options, SessionConfigParser.toOptions(back));
        assertEquals(original.logFileModeBits(), back.logFileModeBits());
        assertEquals(original.kernelFlagBits(), back.kernelFlagBits());
        assertEquals(original.warnings(), back.warnings());
        assertEquals("name=round trip,file=" + dir.resolve("r%d.etl") + ",bufferSize=512,minBuffers=3,maxBuffers=9,"
                + "maxFileSize=77,mode=newfile+system-logger+independent-session,flushTimer=0,"
                + "kernel=profile+no_sysconfig,clock=cycle,orphan=reuse,realTimeWithoutConsumer=false", options);
    }

    @Test
    void toOptionsWithoutAFileOmitsIt() {
        SessionConfig rt = SessionConfig.parse("mode=real-time,realTimeWithoutConsumer=true");
        String options = SessionConfigParser.toOptions(rt);
        assertFalse(options.contains("file="), options);
        assertEquals(options, SessionConfigParser.toOptions(SessionConfig.parse(options)));
    }

    @Test
    void toOptionsRefusesACommaItCouldNotWriteBack() {
        SessionConfig c = SessionConfig.builder().sessionName("a,b").logFile(etl).build();
        assertEquals("name=a,b: a comma cannot be written in the key=value option syntax",
                assertThrows(ConfigException.class, () -> SessionConfigParser.toOptions(c)).getMessage());
    }

    @Test
    void theKernelOptionImpliesSystemLoggerModeExceptForTheKernelLoggerItself() {
        SessionConfig c = SessionConfig.parse(file + ",kernel=process,thread,cswitch,disk_io,file_io");
        assertTrue(c.has(LogFileMode.SYSTEM_LOGGER), c.modes().toString());
        assertTrue(c.has(LogFileMode.SEQUENTIAL));
        assertEquals(0x2000113, c.kernelFlagBits());
        // jetw's provider cannot log to the NT Kernel Logger: only a session without it may take that name.
        assertEquals("name", assertThrows(ConfigException.class,
                () -> SessionConfig.parse(file + ",name=NT Kernel Logger,kernel=process")).key());
        SessionConfig kernelLogger = SessionConfigParser.parse(file + ",name=NT Kernel Logger,kernel=process")
                .providerEnabled(false).build();
        assertFalse(kernelLogger.has(LogFileMode.SYSTEM_LOGGER));
        // The typed builder stays strict: kernel flags without system-logger mode are refused.
        assertThrows(ConfigException.class, () -> SessionConfig.builder().logFile(etl)
                .kernelFlags(java.util.EnumSet.of(KernelFlag.PROCESS)).build());
    }
}
