package dev.jetw.analysis.cli;

import org.junit.jupiter.api.Test;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.analysis.cli.EtlToolTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * dump and summary name the .NET runtime's events by the bundled manifest: no runtime event is left as
 * "id 1 v2 opcode 1", and its fields are shown by name (text) and under "manifest" (JSON).
 */
class ManifestEventsCommandTest {

    @Test
    void dumpNamesTheRuntimesEventsAndTheirFields() {
        EtlToolTest.Run text = run("dump", "--quiet", sample("net.4.5.2.x64.etl"));
        assertEquals(EtlTool.OK, text.status(), text.err());
        assertEquals(0, text.lines().stream().filter(l -> l.contains("Microsoft-Windows-DotNETRuntime ") && l.contains(" id ")).count());
        String gc = text.lines().stream().filter(l -> l.contains("pid 3676 tid 3680") && l.contains("GarbageCollection/Start")
                && l.contains("ClientSequenceNumber")).findFirst().orElseThrow();
        assertTrue(gc.contains("Microsoft-Windows-DotNETRuntime GarbageCollection/Start level 4  Count="), gc);
        EtlToolTest.Run json = run("dump", "--json", "--quiet", sample("net.4.5.2.x64.etl"));
        String tick = json.lines().stream().filter(l -> l.contains("\"GarbageCollection/GCAllocationTick\"")).findFirst().orElseThrow();
        assertTrue(tick.contains("\"manifest\":{\"provider\":\"Microsoft-Windows-DotNETRuntime\",\"event\":\"GarbageCollection/GCAllocationTick\","
                + "\"symbol\":\"GCAllocationTick_V"), tick);
        assertTrue(tick.contains("\"TypeName\":\"System.Windows.Media.HitTestWithPointDrawingContextWalker\""), tick);
    }

    @Test
    void summaryNamesTheRuntimesPrivateProvider() {
        EtlToolTest.Run r = run("summary", sample("net.4.5.2.x64.etl"));
        assertTrue(r.out().contains("763fd754-7086-4dfe-95eb-c01a46faf4ca  Microsoft-Windows-DotNETRuntimePrivate"), r.out());
    }
}
