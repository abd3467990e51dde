package dev.jetw.agent.core;

import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.api.Jetw;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Calls;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ./jetw dump over the portable backend: a readable .etl of what the session holds, tracing goes on. */
class DumpTest {

    private static final String C = "testapp.Calls.";
    private static final List<String> METHODS = Arrays.asList(C + "fail", C + "leaf", C + "middle", C + "run", C + "safeFail");

    @TempDir
    Path dir;

    @AfterEach
    void detachLeftovers() {
        AgentHarness.detachQuietly();
    }

    /** What a ring holds, read leniently (a ring starts and ends mid-call): names, referenced ids, checkpoint labels. */
    private static final class RingContent {
        final java.util.Map<Integer, String> methods = new java.util.HashMap<>();
        final java.util.Set<Integer> referenced = new java.util.HashSet<>();
        final List<String> checkpoints = new java.util.ArrayList<>();

        RingContent(Path etl) throws Exception {
            try (dev.jetw.etl.EtlReader reader = dev.jetw.etl.EtlReader.open(etl)) {
                dev.jetw.etl.EtlRecord r;
                while ((r = reader.next()) != null) {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(r.userData()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    if (dev.jetw.etl.JetwSchema.METHOD_CLASS.equals(r.guid()) && r.type() == dev.jetw.etl.EventType.DC_START) {
                        methods.put(b.getInt(), utf16z(b) + "." + utf16z(b));
                    } else if (dev.jetw.etl.JetwSchema.METHOD_CALL_CLASS.equals(r.guid())) {
                        int id = b.getInt();
                        if (r.type() == dev.jetw.etl.EventType.CHECKPOINT) {
                            checkpoints.add(utf16z(b));
                        } else {
                            referenced.add(id);
                        }
                    }
                }
                assertTrue(reader.problems().isEmpty(), "readable: " + reader.problems());
            }
        }

        private static String utf16z(java.nio.ByteBuffer b) {
            StringBuilder sb = new StringBuilder();
            for (char c; (c = b.getChar()) != 0; ) {
                sb.append(c);
            }
            return sb.toString();
        }
    }

    private static List<String> sorted(java.util.Collection<String> names) {
        return names.stream().filter(n -> n.startsWith(C)).distinct().sorted().collect(java.util.stream.Collectors.toList());
    }

    @Test
    void aRingIsDumpedWithItsMethodNamesAndKeepsTracing() throws Exception {
        Path etl = dir.resolve("ring.etl");
        // A 16 KB ring: the DC_STARTs written at instrumentation are long overwritten when the dump comes.
        String reply = AgentMain.run("backend=portable,include=testapp.Calls,file=" + etl
                + ",mode=buffering,bufferSize=4k,minBuffers=4,maxBuffers=4", AgentHarness.inst(), null);
        assertTrue(reply.startsWith("jetw agent attached"), reply);
        for (int i = 0; i < 2_000; i++) {
            new Calls().run();
        }
        Jetw.checkpoint("before-dump");
        Path dump = dir.resolve("dump.etl");
        String dumped = AgentMain.run("command=dump,dumpFile=" + dump, AgentHarness.inst(), null);
        assertEquals("jetw agent dumped session " + AgentMain.current().options.session.sessionName() + " to " + dump
                + " (tracing goes on)", dumped);
        Jetw.checkpoint("after-dump");
        new Calls().run();
        String detached = AgentHarness.detach();
        assertTrue(detached.startsWith("jetw agent detached"), detached);

        RingContent d = new RingContent(dump);
        assertFalse(d.referenced.isEmpty());
        assertTrue(d.methods.keySet().containsAll(d.referenced), "the dump names every method its events reference: "
                + d.referenced + " vs " + d.methods);
        assertEquals(METHODS, sorted(d.methods.values()));
        assertTrue(d.checkpoints.contains("before-dump"), d.checkpoints.toString());
        assertFalse(d.checkpoints.contains("after-dump"));

        RingContent f = new RingContent(etl);
        assertTrue(f.checkpoints.containsAll(Arrays.asList("before-dump", "after-dump")), "tracing went on: " + f.checkpoints);
    }

    @Test
    void aSequentialSessionIsCopiedAndADefaultNameIsChosenNextToIt() throws Exception {
        Path etl = dir.resolve("seq.etl");
        AgentMain.run("backend=portable,include=testapp.Calls,file=" + etl, AgentHarness.inst(), null);
        new Calls().run();
        String dumped = AgentMain.run("command=dump", AgentHarness.inst(), null);
        assertTrue(dumped.matches("jetw agent dumped session \\S+ to " + java.util.regex.Pattern.quote(dir.toString())
                + "/seq-dump-\\d{8}-\\d{6}-[0-9a-f]{4}\\.etl \\(tracing goes on\\)"), dumped);
        Path dump = Path.of(dumped.substring(dumped.indexOf(" to ") + 4, dumped.indexOf(" (tracing")));
        new Calls().run();
        AgentHarness.detach();
        assertEquals(METHODS, sorted(TraceModel.of(dump).methodStarts.values()));
        assertEquals(1, TraceModel.of(dump).calls.stream().filter(c -> c.method.equals(C + "run")).count());
        assertEquals(2, TraceModel.of(etl).calls.stream().filter(c -> c.method.equals(C + "run")).count());
        assertTrue(Files.size(dump) < Files.size(etl));
    }

    @Test
    void dumpWithoutAnAgentOrOntoAnExistingFileSaysSo() throws Exception {
        assertEquals("jetw: dump: no jetw agent is attached in this JVM", AgentMain.run("command=dump", AgentHarness.inst(), null));
        AgentMain.run("backend=portable,include=testapp.Calls,file=" + dir.resolve("x.etl"), AgentHarness.inst(), null);
        Path existing = Files.write(dir.resolve("existing.etl"), new byte[] {1});
        String reply = AgentMain.run("command=dump,dumpFile=" + existing, AgentHarness.inst(), null);
        // One line, said once, and no advice the dump does not take (./jetw dump PID FILE overwrite=true is a usage error).
        assertEquals("jetw: dump: " + existing + " exists, and a dump never replaces anything: name a new file,"
                + " or leave FILE out for a new name beside the trace", reply);
        Path folder = Files.createDirectory(dir.resolve("folder.etl"));
        assertEquals("jetw: dump: " + folder + " is a folder, and a dump never replaces anything: name a new file,"
                + " or leave FILE out for a new name beside the trace", AgentMain.run("command=dump,dumpFile=" + folder, AgentHarness.inst(), null));
        assertEquals(1, Files.size(existing), "untouched");
    }

    @Test
    void presetAlwaysOnPicksTheRingAndDumpOnExitFalseKeepsItFromTheFile() {
        AgentOptions o = AgentOptions.parse("preset=always-on");
        assertTrue(o.session.has(dev.jetw.etw.LogFileMode.BUFFERING));
        assertEquals(64, o.session.bufferSizeKb());
        assertEquals(64, o.session.minimumBuffers());
        assertTrue(o.dumpOnExit);
        assertEquals(o.logFile, o.session.logFile());
        AgentOptions later = AgentOptions.parse("preset=always-on,minBuffers=16,dumpOnExit=false");
        assertEquals(16, later.session.minimumBuffers(), "explicit options override the preset");
        assertEquals(null, later.session.logFile(), "nothing is written at exit");
        assertTrue(later.logFile != null, "dumps still default next to file=");
    }
}
