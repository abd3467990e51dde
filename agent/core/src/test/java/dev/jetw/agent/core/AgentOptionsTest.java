package dev.jetw.agent.core;

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
        long pid = Pid.current();
        assertTrue(pid > 0);
        assertEquals("jetw-" + pid, o.session.sessionName());
        assertEquals(Paths.get("jetw-" + pid + ".etl").toAbsolutePath().normalize(), o.session.logFile());
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
        assertMessage("include=com.acme.**@shouty: allowed: critical, error, warning, information, verbose or 1-255 after '@'", "include=com.acme.**@shouty");
        assertMessage("exclude=com.a.*@verbose: an exclude takes no @level; allowed: a package, class or class#method glob", "exclude=com.a.*@verbose");
        assertMessage("include=com acme: ' ' is not allowed in a pattern; allowed: Java names, '.', '$', '*', '**', '?'", "include=com acme");
        assertMessage("include=a#b#c: at most one '#' (class#method) is allowed", "include=a#b#c");
        assertMessage("annotation=com..X: allowed: a fully qualified annotation name, optionally @level (com.acme.Timed@verbose)", "annotation=com..X");
        assertMessage("command=stop: allowed: attach, status, detach", "command=stop");
        assertTrue(message("colour=red").startsWith("colour=red: unknown option; allowed: include, exclude,"));
        assertTrue(message("justaword").startsWith("justaword=(no value): expected key=value"), message("justaword"));
        assertTrue(message("config=" + dir.resolve("missing.conf")).startsWith("config=" + dir.resolve("missing.conf") + ": cannot read "));
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
}
