package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EtlFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.analysis.cli.EtlToolTest.sample;
import static dev.jetw.etl.EtlFixtureBuilder.le;
import static dev.jetw.etl.EtlFixtureBuilder.systemLike;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What dump and summary show of stacks compressed by key and of the machine's configuration: on the
 * net.4.5.2 sample every StackKey event shows its frames and the count says none is left unresolved; on
 * a built trace whose key is never defined the event says "unresolved" and the count says so.
 */
class KernelDetailCommandsTest {

    @TempDir
    Path tmp;

    @Test
    void dumpShowsTheFramesOfEveryStackKeyEvent() {
        EtlToolTest.Run text = run("dump", "--quiet", sample("net.4.5.2.x64.etl"));
        assertEquals(EtlTool.OK, text.status(), text.err());
        String user = text.lines().stream().filter(l -> l.contains("StackWalk/StackKeyUser")).findFirst().orElseThrow();
        assertTrue(user.contains("stackKey=0xfffffa8303442390 stack=[0x7f9d02f2c1a,0x7f9cf9e1ac6,"), user);
        assertEquals(9107, text.lines().stream().filter(l -> l.contains("StackWalk/StackKey") && l.contains(" stack=[0x")).count());
        assertTrue(text.err().contains("9107 stacks by key, 9107 resolved, 0 unresolved"), text.err());
        String send = text.lines().stream().filter(l -> l.contains("TcpIp/SendIPV6")).findFirst().orElseThrow();
        assertTrue(send.contains("daddr=\"2001:4898:e0:81:7cb9:ab:cd5:e6af\"") && send.contains("dport=445"), send);

        EtlToolTest.Run json = run("dump", "--json", "--quiet", sample("net.4.5.2.x64.etl"));
        String kernel = json.lines().stream().filter(l -> l.contains("\"StackWalk/StackKeyKernel\"")).findFirst().orElseThrow();
        assertTrue(kernel.contains("\"stackKey\":\"0xfffffa8303441010\",\"stack\":[\"0xfffff80021434313\","), kernel);
    }

    @Test
    void summaryNamesTheMachineAndCountsTheStacksByKey() {
        EtlToolTest.Run r = run("summary", sample("net.4.5.2.x64.etl"));
        assertEquals(EtlTool.OK, r.status(), r.err());
        assertTrue(r.out().contains("machine:     BRIANROB-W8: 8 CPUs at 3592 MHz, 4096 MB memory (EventTraceConfig)"), r.out());
        assertTrue(r.out().contains("disks:       disk 0 Virtual HD ATA Device; C: NTFS on disk 0, 136.0 GB"), r.out());
        assertTrue(r.out().contains("stacks by key: 9107 references (StackKeyKernel/StackKeyUser), 9107 resolved, 0 unresolved"),
                r.out());
        EtlToolTest.Run json = run("summary", "--json", sample("net.4.5.2.x64.etl"));
        assertTrue(json.out().contains("\"stacksByKey\":{\"references\":9107,\"resolved\":9107,\"unresolved\":0}"), json.out());
        assertTrue(json.out().contains("\"machine\":{\"computerName\":\"BRIANROB-W8\",\"processors\":8,\"mhz\":3592"), json.out());
    }

    @Test
    void aKeyNeverDefinedIsShownAndCountedUnresolved() throws Exception {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        ByteBuffer defined = le(24).putLong(b.anchor).putInt(4).putInt(8).putLong(0x1000L);
        ByteBuffer lost = le(24).putLong(b.anchor).putInt(4).putInt(8).putLong(0x2000L);
        ByteBuffer definition = le(24).putLong(0x1000L).putLong(0xA1L).putLong(0xA2L);
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x18, 37, 0, 0, b.anchor + 1, defined.array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x18, 38, 0, 0, b.anchor + 2, lost.array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x18, 36, 0, 0, b.anchor + 3, definition.array()));
        Path f = tmp.resolve("keys.etl");
        Files.write(f, b.build());
        EtlToolTest.Run dump = run("dump", "--quiet", f.toString());
        assertTrue(dump.out().contains("stackKey=0x1000 stack=[0xa1,0xa2]"), dump.out());
        assertTrue(dump.out().contains("stackKey=0x2000 stack=unresolved"), dump.out());
        assertTrue(dump.err().contains("2 stacks by key, 1 resolved, 1 unresolved"), dump.err());
        EtlToolTest.Run summary = run("summary", f.toString());
        assertTrue(summary.out().contains("stacks by key: 2 references (StackKeyKernel/StackKeyUser), 1 resolved, 1 unresolved"),
                summary.out());
    }
}
