package dev.jetw.analysis.manifest;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled .NET runtime manifest on net.4.5.2.x64.etl: every event of the runtime's providers is named,
 * and the GC start of Test.x64 (pid 3676) reads as PerfView's own baseline for this file shows it
 * (TraceEvent.Tests/inputs/net.4.5.2.x64.baseline.txt: "GC/Start PID=3676; TID=3680; DataLen=18; Count=1;
 * Reason=AllocSmall; Depth=0; Type=NonConcurrentGC; ClrInstanceID=9", then the same with DataLen=26 and
 * ClientSequenceNumber=0: the runtime logs versions 1 and 2).
 */
class ClrManifestSampleTest {

    private static final UUID RUNTIME = UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    private static final UUID RUNDOWN = UUID.fromString("a669021c-c450-4609-a035-5af59af4df18");
    private static final UUID PRIVATE = UUID.fromString("763fd754-7086-4dfe-95eb-c01a46faf4ca");

    private static List<ManifestEvent> decode(String sample, List<EtlRecord> records) throws IOException {
        ManifestDecoder d = ManifestDecoder.bundled();
        List<ManifestEvent> out = new ArrayList<>();
        try (EtlReader r = EtlReader.open(Paths.get(System.getProperty("jetw.samples.dir"), sample))) {
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                ManifestEvent m = d.decode(e);
                if (m != null) {
                    out.add(m);
                    records.add(e);
                }
            }
        }
        return out;
    }

    @Test
    void everyRuntimeEventIsNamedAndGcStartReadsAsPerfViewReadsIt() throws IOException {
        List<EtlRecord> records = new ArrayList<>();
        List<ManifestEvent> events = decode("net.4.5.2.x64.etl", records);
        Map<UUID, Integer> perProvider = new TreeMap<>();
        for (EtlRecord r : records) {
            perProvider.merge(r.guid(), 1, Integer::sum);
        }
        assertEquals(Map.of(RUNTIME, 32_730, RUNDOWN, 33_011, PRIVATE, 1_627), perProvider, "the summary's counts of these providers");
        assertTrue(events.stream().noneMatch(e -> e.name().startsWith("id ")));
        int i = -1; // the earliest GC start of pid 3676 (records come in per-buffer order, not time order)
        for (int j = 0; j < events.size(); j++) {
            if (records.get(j).processId() == 3676 && events.get(j).name().equals("GarbageCollection/Start")
                    && (i < 0 || records.get(j).rawTimestamp() < records.get(i).rawTimestamp())) {
                i = j;
            }
        }
        ManifestEvent v1 = events.get(i);
        assertEquals(3680, records.get(i).threadId());
        assertEquals(18, records.get(i).userData().length);
        assertEquals("GCStart_V1", v1.symbol());
        assertEquals(1, v1.number("Count"));
        assertEquals(0, v1.number("Reason"), "GCReasonMap 0: AllocSmall");
        assertEquals(0, v1.number("Depth"));
        assertEquals(0, v1.number("Type"), "GCTypeMap 0: NonConcurrentGC");
        assertEquals(9, v1.number("ClrInstanceID"));
        assertNull(v1.note());
        int k = -1; // its version 2 twin: the earliest GCStart_V2 of the process
        for (int j = 0; j < events.size(); j++) {
            if (records.get(j).processId() == 3676 && "GCStart_V2".equals(events.get(j).symbol())
                    && (k < 0 || records.get(j).rawTimestamp() < records.get(k).rawTimestamp())) {
                k = j;
            }
        }
        ManifestEvent v2 = events.get(k);
        assertEquals(26, records.get(k).userData().length);
        assertEquals(1, v2.number("Count"), "the same GC");
        assertEquals(9, v2.number("ClrInstanceID"));
        assertEquals(0, v2.number("ClientSequenceNumber"));
        assertNull(v2.note());
        long notes = events.stream().filter(e -> e.note() != null).map(ManifestEvent::name).distinct().count();
        assertEquals(2, notes, "only CLRStackWalk (the manifest declares 2 frames, the runtime logs FrameCount) and"
                + " GCPerHeapHistory carry bytes the manifest does not describe");
        ManifestEvent tick = events.stream().filter(e -> e.name().equals("GarbageCollection/GCAllocationTick")).findFirst().orElseThrow();
        assertEquals("System.Windows.Media.HitTestWithPointDrawingContextWalker", tick.text("TypeName"));
    }

    @Test
    void theRundownSampleIsNamedEntirely() throws IOException {
        List<EtlRecord> records = new ArrayList<>();
        List<ManifestEvent> events = decode("PerfViewData.clrRundown.etl", records);
        // The README's 110 Microsoft-Windows-DotNETRuntimeRundown records, but for two events .NET 8 added after the
        // manifest copy jetw carries (docs/manifest-events.md): ids 10 and 280, which stay "id N".
        assertEquals(108, events.size());
        assertTrue(records.stream().noneMatch(r -> r.eventId() == 10 || r.eventId() == 280));
        ManifestEvent info = events.stream().filter(e -> e.name().equals("CLRRuntimeInformationRundown/Start")).findFirst().orElseThrow();
        assertEquals(8, info.number("BclMajorVersion"));
        assertTrue(events.stream().allMatch(e -> e.note() == null), "every rundown event fits its template");
    }
}
