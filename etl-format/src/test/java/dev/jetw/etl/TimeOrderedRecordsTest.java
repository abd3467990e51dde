package dev.jetw.etl;

import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeOrderedRecordsTest {

    @TempDir
    Path tmp;

    /** Two buffers as two processors flush them: the second holds events from before the first's. */
    private Path interleaved() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.newBuffer();
        for (int ms : new int[] {10, 30, 50}) {
            b.record(full(true, EventType.INFO, 0, 0, 1, 7, b.anchor + ms * 10_000L, JetwSchema.METHOD_CALL_CLASS, u32(ms)));
        }
        b.newBuffer();
        for (int ms : new int[] {20, 40, 60}) {
            b.record(full(true, EventType.INFO, 0, 0, 2, 7, b.anchor + ms * 10_000L, JetwSchema.METHOD_CALL_CLASS, u32(ms)));
        }
        Path f = tmp.resolve("interleaved.etl");
        Files.write(f, b.build());
        return f;
    }

    private static List<Long> msOfEvents(TimeOrderedRecords ordered, EtlReader reader) throws IOException {
        List<Long> out = new ArrayList<>();
        for (EtlRecord r = ordered.next(); r != null; r = ordered.next()) {
            if (!r.isLogfileHeader() && r.group() < 0) {
                out.add(reader.timestamps().hundredNanosSinceStart(r.rawTimestamp()) / 10_000);
            }
        }
        return out;
    }

    @Test
    void buffersThatInterleaveInTimeComeOutInTimeOrderAndNothingIsLate() throws IOException {
        try (EtlReader reader = EtlReader.open(interleaved())) {
            TimeOrderedRecords ordered = new TimeOrderedRecords(reader);
            List<Long> ms = msOfEvents(ordered, reader);
            List<Long> sorted = new ArrayList<>(ms);
            sorted.sort(null);
            assertEquals(6, ms.size(), ms.toString());
            assertEquals(sorted, ms);
            assertEquals(0, ordered.late());
        }
    }

    @Test
    void pastItsBoundARecordThatCannotBePlacedIsDeliveredAtOnceAndCounted() throws IOException {
        try (EtlReader reader = EtlReader.open(interleaved())) {
            // Holding at most one record: the first buffer's events go out before the second's earlier ones arrive.
            TimeOrderedRecords ordered = new TimeOrderedRecords(reader, TimeOrderedRecords.DEFAULT_HORIZON_100NS, 1);
            List<Long> ms = msOfEvents(ordered, reader);
            // 10 and 30 go out as the first buffer is read; 20 arrives after 30 went out: delivered at once, counted.
            assertEquals(List.of(10L, 30L, 20L, 40L, 50L, 60L), ms, "nothing dropped");
            assertEquals(1, ordered.late(), ms.toString());
        }
    }

    @Test
    void aZeroHorizonPlacesOnlyWhatArrivesInOrder() throws IOException {
        try (EtlReader reader = EtlReader.open(interleaved())) {
            TimeOrderedRecords ordered = new TimeOrderedRecords(reader, 0, TimeOrderedRecords.DEFAULT_MAX_HELD);
            List<Long> ms = msOfEvents(ordered, reader);
            assertEquals(List.of(10L, 30L, 20L, 40L, 50L, 60L), ms);
            assertEquals(1, ordered.late(), ms.toString());
        }
    }
}
