package dev.jetw.agent.core.options;

import dev.jetw.etw.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentOptionsTest {

    @TempDir
    Path dir;

    @Test
    void defaults() {
        AgentOptions o = AgentOptions.parse("");
        long pid = dev.jetw.etw.ProcessId.current();
        assertTrue(pid > 0);
        assertEquals("jetw-" + pid, o.session.sessionName());
        assertEquals(Paths.get("").toAbsolutePath(), o.session.logFile().getParent());
        // Unpredictable: nobody can prepare the default path before the JVM writes it.
        String name = o.session.logFile().getFileName().toString();
        assertTrue(name.matches("jetw-" + pid + "-[0-9a-f]{8}\\.etl"), name);
        assertFalse(name.equals(AgentOptions.parse("").session.logFile().getFileName().toString()));
        assertTrue(o.session.logFile().isAbsolute());
        assertEquals(4, o.level);
        assertEquals(2, o.exceptionLevel);
        assertEquals(5, o.enableLevel);
        assertEquals("auto", o.backend);
        assertEquals(5000, o.maxMethods);
        assertFalse(o.bootstrap);
        assertFalse(o.verbose);
        assertNull(o.command);
        assertTrue(o.rules.isEmpty());
        assertTrue(o.excludes.isEmpty());
        assertEquals(-1L, o.thresholdNanos, "none set: every call is written, and adaptive exclusion may give a hot method one");
        assertTrue(o.adaptive, "adaptive exclusion is on by default");
        assertTrue(o.propagate, "cross-thread links are on by default");
        assertEquals(200, o.uninstrumentRate, "excluded methods lose their advice, 200 classes a second at most");
        assertTrue(o.skipTrivial, "trivial methods are not instrumented by default");
    }

    @Test
    void thresholdsGlobalAndPerRuleInEitherSuffixOrder() {
        AgentOptions o = AgentOptions.parse("threshold=2.5ms,include=org.h2.**;com.acme.**@verbose@500us;com.acme.Io@10ms@warning;"
                + "com.acme.All@0,annotation=com.acme.Timed@1s,adaptive=FALSE,propagate=false");
        assertEquals(2_500_000L, o.thresholdNanos);
        assertFalse(o.propagate);
        assertFalse(o.adaptive);
        assertEquals("[org.h2.**@4@2500us, com.acme.**@5@500us, com.acme.Io@3@10ms, com.acme.All@4, @com.acme.Timed@4@1s]",
                o.rules.toString());
        assertEquals(0L, o.rules.get(3).thresholdNanos, "@0 turns the global threshold off for one rule");
    }

    @Test
    void badThresholdsNameTheOption() {
        String allowed = "allowed: a duration such as 0, 500us, 1ms, 2.5ms or 1s (units ns, us, ms, s; at most 1 hour)";
        assertMessage("threshold=5: " + allowed, "threshold=5");
        assertMessage("threshold=-1ms: " + allowed, "threshold=-1ms");
        assertMessage("threshold=2h: " + allowed, "threshold=2h");
        assertMessage("include=a.B@1ms@2ms: a rule takes at most one @threshold", "include=a.B@1ms@2ms");
        assertMessage("include=a.B@1x: allowed after '@': a level (critical, error, warning, information, verbose or 1-255) "
                + "and/or a threshold (0, 500us, 1ms, 1s)", "include=a.B@1x");
        assertMessage("adaptive=maybe: allowed: true, false", "adaptive=maybe");
        assertMessage("propagate=yes: allowed: true, false", "propagate=yes");
        assertMessage("uninstrumentRate=-1: allowed: a whole number of classes per second from 0 (keep the advice) to 1000",
                "uninstrumentRate=-1");
        assertEquals(0, AgentOptions.parse("uninstrumentRate=0").uninstrumentRate);
        assertFalse(AgentOptions.parse("trivial=TRACE").skipTrivial);
        assertMessage("trivial=all: allowed: skip (getters, setters and other trivial methods are not instrumented), trace", "trivial=all");
    }

    @Test
    void attachHotIsSkipUnlessGivenAndABadValueNamesWhatIsAllowed() {
        assertEquals(AttachHot.SKIP, AgentOptions.parse("include=a.**").attachHot, "no stall the user did not ask for (docs/attach-ramp.md)");
        assertEquals(AttachHot.DEFER, AgentOptions.parse("attachHot=defer").attachHot);
        assertEquals(AttachHot.NOW, AgentOptions.parse("attachHot=now").attachHot);
        assertEquals(AttachHot.SKIP, AgentOptions.parse("attachhot=SKIP").attachHot, "keys and this value are case-insensitive");
        assertMessage("attachHot=later: allowed: defer (hot classes last, together), now (hot classes first), skip (hot classes"
                + " not instrumented in this attach)", "attachHot=later");
    }

    @Test
    void anEmptyFileIsReportedAsTypedNotAsTheWorkingDirectory() {
        ConfigException e = assertThrows(ConfigException.class, () -> AgentOptions.parse("file="));
        assertTrue(e.getMessage().startsWith("file=:"), e.getMessage());
        assertFalse(e.getMessage().contains(Paths.get("").toAbsolutePath().toString()), e.getMessage());
    }

    @Test
    void rulesListsAndLevels() {
        AgentOptions o = AgentOptions.parse("include=com.acme.**@verbose;com.acme.Foo#bar, include=org.x.Y,"
                + "exclude=com.acme.util.*#toString,annotation=com.acme.Timed;com.acme.Slow@warning,level=error,"
                + "exceptionLevel=critical,enableLevel=3,backend=PORTABLE,maxMethods=10,bootstrap=true,verbose=true");
        assertEquals("[com.acme.**@5, com.acme.Foo#bar@2, org.x.Y@2, @com.acme.Timed@2, @com.acme.Slow@3]", o.rules.toString());
        assertEquals("[com.acme.util.*#toString]", o.excludes.toString());
        assertEquals(2, o.level);
        assertEquals(1, o.exceptionLevel);
        assertEquals(3, o.enableLevel);
        assertEquals("portable", o.backend);
        assertEquals(10, o.maxMethods);
        assertTrue(o.bootstrap);
        assertTrue(o.verbose);
    }

    @Test
    void sessionKeysAndCommands() {
        AgentOptions o = AgentOptions.parse("name=mine,file=" + dir.resolve("x.etl") + ",command=status,out=" + dir.resolve("o.txt"));
        assertEquals("mine", o.session.sessionName());
        assertEquals(dir.resolve("x.etl"), o.session.logFile());
        assertEquals("status", o.command);
        assertEquals(dir.resolve("o.txt"), o.out);
    }

    @Test
    void everySessionKeyGoesToTheSessionParser() {
        AgentOptions o = AgentOptions.parse("include=com.a.**,bufferSize=128,minBuffers=4,maxBuffers=64,flushTimer=2,"
                + "kernel=process,thread,Level=verbose,clock=system");
        assertEquals(128, o.session.bufferSizeKb());
        assertEquals(4, o.session.minimumBuffers());
        assertEquals(64, o.session.maximumBuffers());
        assertEquals(2, o.session.flushTimerSeconds());
        assertEquals("[PROCESS, THREAD]", o.session.kernelFlags().toString(), "a list key continues over bare tokens");
        assertEquals(5, o.level, "agent keys are case-insensitive like the session keys");
        assertEquals("SYSTEM", o.session.clock().name());
        ConfigException e = assertThrows(ConfigException.class, () -> AgentOptions.parse("include=com.a.**,bufferSize=lots"));
        assertTrue(e.getMessage().startsWith("bufferSize=lots: "), e.getMessage());
    }

    @Test
    void configFileIsReadAndTheCommandLineOverridesIt() throws Exception {
        Path cfg = dir.resolve("jetw.conf");
        Files.write(cfg, ("# jetw options\n\nname=from-file\nlevel=verbose\ninclude=com.a.**\n  exclude=com.a.B\n")
                .getBytes(StandardCharsets.UTF_8));
        AgentOptions o = AgentOptions.parse("config=" + cfg + ",level=warning,include=com.c.**");
        assertEquals("from-file", o.session.sessionName());
        assertEquals(3, o.level);
        assertEquals("[com.a.**@3, com.c.**@3]", o.rules.toString(), "lists from both places; scalars: the command line wins");
        assertEquals("[com.a.B]", o.excludes.toString());
    }

    @Test
    void badOptionsNameTheOptionAndWhatIsAllowed() {
        assertMessage("level=loud: allowed: critical, error, warning, information, verbose or 1-255", "level=loud");
        assertMessage("backend=dos: allowed: windows, portable, auto", "backend=dos");
        assertMessage("maxMethods=0: allowed: a whole number from 1 to 1000000", "maxMethods=0");
        assertMessage("bootstrap=yes: allowed: true, false", "bootstrap=yes");
        assertMessage("include=com.acme.**@shouty: allowed after '@': a level (critical, error, warning, information, verbose or 1-255) "
                + "and/or a threshold (0, 500us, 1ms, 1s)", "include=com.acme.**@shouty");
        assertMessage("exclude=com.a.*@verbose: an exclude takes no @level; allowed: a package, class or class#method glob", "exclude=com.a.*@verbose");
        assertMessage("include=com acme: ' ' is not allowed in a pattern; allowed: Java names, '.', '$', '*', '**', '?'", "include=com acme");
        assertMessage("include=a#b#c: at most one '#' (class#method) is allowed", "include=a#b#c");
        assertMessage("annotation=com..X: allowed: a fully qualified annotation name, optionally @level and/or @threshold "
                + "(com.acme.Timed@verbose@1ms)", "annotation=com..X");
        assertMessage("command=stop: allowed: attach, status, detach, dump", "command=stop");
        assertTrue(message("colour=red").startsWith("colour=red: unknown option; allowed: include, exclude,"));
        assertTrue(message("justaword").startsWith("justaword=(no value): expected key=value"), message("justaword"));
        assertTrue(message("config=" + dir.resolve("missing.conf")).startsWith("config=" + dir.resolve("missing.conf") + ": not a readable regular file"));
    }

    @Test
    void aKeyGivenTwiceIsAnErrorExceptTheListKeys() {
        assertMessage("level=error: given twice (first level=verbose); give each option once (only include, exclude and annotation may repeat:"
                + " their entries add up)", "level=verbose,include=a.B,level=error");
        assertTrue(message("name=a,NAME=b").startsWith("NAME=b: given twice (first name=a)"), message("name=a,NAME=b"));
        assertEquals("[a.B@4, c.D@4]", AgentOptions.parse("include=a.B,include=c.D").rules.toString());
    }

    @Test
    void theBackendsLimitsAreValidatedOnceWithTheTrueReason() {
        assertTrue(message("backend=portable,bufferSize=16384").startsWith("bufferSize=16384: allowed 4-1024 KB with the portable backend"),
                message("backend=portable,bufferSize=16384"));
        // Not first sent to clock=system: append is what the portable backend cannot do.
        assertTrue(message("backend=portable,mode=append").startsWith("mode=append: the portable backend always starts a new file"),
                message("backend=portable,mode=append"));
        assertTrue(message("backend=portable,name=" + "n".repeat(1024)).contains("at most 1023 characters with the portable backend"));
    }

    @Test
    void aBufferRequestThatCannotFitTheHeapIsRefusedNamingTheOptionAndTheLimit() {
        long heap = Runtime.getRuntime().maxMemory();
        String m = message("backend=portable,minBuffers=100000,maxBuffers=100000,bufferSize=1024");
        assertTrue(m.startsWith("minBuffers=100000: 100000 buffers of 1024 KB (100000 MB) do not fit: the portable backend keeps its buffers"
                + " in the Java heap and minBuffers x bufferSize may use at most a quarter of the max heap"), m);
        assertTrue(m.endsWith("allowed at most " + heap / 4 / (1024 * 1024) + " buffers of 1024 KB"), m);
        int grown = (int) (heap / 2 / (64 * 1024)) + 1;
        assertTrue(message("backend=portable,maxBuffers=" + grown).startsWith("maxBuffers=" + grown + ": "), "half the heap for grown buffers");
        assertEquals(grown - 1, AgentOptions.parse("backend=portable,maxBuffers=" + (grown - 1)).session.maximumBuffers());
    }

    @Test
    void aConfigFileThatIsNoConfigFileIsNeverEchoed() throws Exception {
        Path passwd = dir.resolve("passwd");
        Files.write(passwd, "root:x:0:0:root:/root:/bin/bash\nsecret=hunter2\n".getBytes(StandardCharsets.UTF_8));
        String m = message("config=" + passwd);
        assertEquals("config=" + passwd + ": line 1 is not a valid jetw option (content not shown); allowed: key=value lines of the options"
                + " in docs/agent-options.md", m);
        Path levels = dir.resolve("levels.conf");
        Files.write(levels, "include=a.B\nlevel=hunter2\n".getBytes(StandardCharsets.UTF_8));
        String bad = message("config=" + levels);
        assertEquals("config=" + levels + ": line 2: option level (value not shown): allowed: critical, error, warning, information,"
                + " verbose or 1-255", bad);
        Path binary = dir.resolve("garbage.bin");
        Files.write(binary, new byte[] {(byte) 0xC3, 0x28, 'k', '=', (byte) 0xFF});
        String b = message("config=" + binary);
        assertTrue(b.contains("not UTF-8 text") && !b.contains("k="), b);
        Path twice = dir.resolve("twice.conf");
        Files.write(twice, "level=verbose\nlevel=hunter2\n".getBytes(StandardCharsets.UTF_8));
        String t = message("config=" + twice);
        assertTrue(t.contains("line 2") && !t.contains("hunter2"), t);
        assertTrue(message("config=" + dir).contains("not a readable regular file"));
    }

    private static void assertMessage(String expected, String options) {
        assertEquals(expected, message(options));
    }

    private static String message(String options) {
        ConfigException e = assertThrows(ConfigException.class, () -> AgentOptions.parse(options));
        assertFalse(e.getMessage().contains("\n"));
        return e.getMessage();
    }

    @Test
    void jvmFamiliesDefaultAllNoneAndListsInSchemaOrder() {
        assertEquals(java.util.List.of("gc", "safepoint", "contention", "park", "io"),
                new java.util.ArrayList<>(AgentOptions.parse("include=a.B").jvmFamilies));
        assertEquals(dev.jetw.etl.JvmEventSchema.FAMILIES, new java.util.ArrayList<>(AgentOptions.parse("jvm=all").jvmFamilies));
        assertTrue(AgentOptions.parse("jvm=none").jvmFamilies.isEmpty());
        assertEquals(java.util.List.of("gc", "exception"), new java.util.ArrayList<>(AgentOptions.parse("jvm=exception,gc,level=verbose").jvmFamilies));
        assertEquals(20_000_000L, AgentOptions.parse("include=a.B").jvmThresholdNanos);
        assertEquals(500_000L, AgentOptions.parse("jvmThreshold=500us").jvmThresholdNanos);
        assertEquals(0L, AgentOptions.parse("jvmThreshold=0").jvmThresholdNanos);
    }

    @Test
    void badJvmValuesNameTheOptionAndWhatIsAllowed() {
        dev.jetw.etw.ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(dev.jetw.etw.ConfigException.class,
                () -> AgentOptions.parse("jvm=gc,bogus"));
        assertEquals("jvm=gc+bogus: unknown family 'bogus'; allowed: all, none, or a list of gc, safepoint, contention, park, jit, "
                + "classload, exception, thread, io (separated by ',' '+' or ';')", e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(dev.jetw.etw.ConfigException.class, () -> AgentOptions.parse("jvm=none;gc"));
        org.junit.jupiter.api.Assertions.assertThrows(dev.jetw.etw.ConfigException.class, () -> AgentOptions.parse("jvmThreshold=fast"));
    }

    @Test
    void hotMethodsReadsAListAnExclusionWinning() throws Exception {
        Path list = dir.resolve("a.hot");
        Files.write(list, java.util.Arrays.asList("# comment", "", "hot-threshold=1ms a.B.c(I)V", "hot-fast a.B.c(I)V",
                "hot-short a.B$Inner.d()Z", "hot-threshold=500us a.B.e()V"), StandardCharsets.UTF_8);
        AgentOptions o = AgentOptions.parse("include=a.**,hotMethods=" + list);
        assertEquals(3, o.hotMethods.size());
        assertTrue(o.hotMethods.of("a.B", "c", "(I)V").excludes(), "hot-fast after a threshold: excluded");
        assertEquals("hot-short", o.hotMethods.of("a.B$Inner", "d", "()Z").reason);
        assertEquals(500_000L, o.hotMethods.of("a.B", "e", "()V").thresholdNanos);
        assertNull(o.hotMethods.of("a.B", "e", "(I)V"), "the descriptor is part of the name");
    }

    @Test
    void aBadHotMethodsFileIsOneLineNamingTheLineNotItsContent() throws Exception {
        Path bad = dir.resolve("bad.hot");
        Files.write(bad, java.util.Arrays.asList("hot-short a.B.c()V", "secret-token hunter2"), StandardCharsets.UTF_8);
        ConfigException e = assertThrows(ConfigException.class, () -> AgentOptions.parse("hotMethods=" + bad));
        assertEquals("hotMethods=" + bad + ": line 2 is not 'REASON CLASS.METHOD(DESCRIPTOR)' with REASON hot-short, hot-fast or"
                + " hot-threshold=DURATION; allowed: a file written by 'jetw etl hot-methods'", e.getMessage());
        assertFalse(e.getMessage().contains("hunter2"));
        Files.write(bad, java.util.Arrays.asList("hot-threshold=soon a.B.c()V"), StandardCharsets.UTF_8);
        assertTrue(assertThrows(ConfigException.class, () -> AgentOptions.parse("hotMethods=" + bad)).getMessage().contains("line 1 is not"));
        Files.write(bad, java.util.Arrays.asList("hot-short a.B.c"), StandardCharsets.UTF_8);
        assertTrue(assertThrows(ConfigException.class, () -> AgentOptions.parse("hotMethods=" + bad)).getMessage().contains("line 1 is not"));
        ConfigException missing = assertThrows(ConfigException.class, () -> AgentOptions.parse("hotMethods=" + dir.resolve("none.hot")));
        assertTrue(missing.getMessage().startsWith("hotMethods=" + dir.resolve("none.hot") + ": not a readable regular file"), missing.getMessage());
        Files.write(bad, java.util.Arrays.asList("hot-short a.B.c()V"), StandardCharsets.UTF_8);
        ConfigException off = assertThrows(ConfigException.class, () -> AgentOptions.parse("adaptive=false,hotMethods=" + bad));
        assertEquals("hotMethods=" + bad + ": continues an earlier run's adaptive exclusion and needs adaptive=true (given adaptive=false);"
                + " allowed: leave out one of the two", off.getMessage());
    }

    @Test
    void aHotMethodsFileMayBeUtf16WithAByteOrderMarkAsPowerShellWritesIt() throws Exception {
        String text = "# jetw hot methods\r\nhot-short a.B.c()V\r\nhot-threshold=1ms a.B.d(I)I\r\n";
        Path utf16 = dir.resolve("ps5.hot");
        byte[] body = text.getBytes(StandardCharsets.UTF_16LE);
        byte[] withBom = new byte[body.length + 2];
        withBom[0] = (byte) 0xFF;
        withBom[1] = (byte) 0xFE;
        System.arraycopy(body, 0, withBom, 2, body.length);
        Files.write(utf16, withBom);
        AgentOptions o = AgentOptions.parse("hotMethods=" + utf16);
        assertEquals(2, o.hotMethods.size());
        assertTrue(o.hotMethods.of("a.B", "c", "()V").excludes());
        Path utf8Bom = dir.resolve("bom.hot");
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        byte[] bom8 = new byte[utf8.length + 3];
        bom8[0] = (byte) 0xEF;
        bom8[1] = (byte) 0xBB;
        bom8[2] = (byte) 0xBF;
        System.arraycopy(utf8, 0, bom8, 3, utf8.length);
        Files.write(utf8Bom, bom8);
        assertEquals(1_000_000L, AgentOptions.parse("hotMethods=" + utf8Bom).hotMethods.of("a.B", "d", "(I)I").thresholdNanos);
        Path noBom = dir.resolve("nobom.hot");
        Files.write(noBom, body); // UTF-16 without a byte-order mark is not UTF-8 text: one clear line
        ConfigException e = assertThrows(ConfigException.class, () -> AgentOptions.parse("hotMethods=" + noBom));
        assertTrue(e.getMessage().contains("not UTF-8 text, nor UTF-16 with a byte-order mark"), e.getMessage());
    }

    /**
     * standby is taken whole by the entry class before the core loads (AgentEntryTest); what reaches the options is
     * always a misuse, and each gets one line naming the option and the one allowed form.
     */
    @Test
    void standbyIsRefusedWithAValueWithOtherOptionsOrAtAttach() {
        for (String bad : new String[] {"standby", "standby,include=com.acme.**", "include=com.acme.**,standby",
                "standby=true", "STANDBY=yes", "include=com.acme.**,standby=1"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> AgentOptions.parse(bad), bad);
            assertEquals("standby", e.key().toLowerCase(java.util.Locale.ROOT), bad);
            assertTrue(e.getMessage().contains("allowed only alone and at start-up, as -javaagent:jetw-agent.jar=standby"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
