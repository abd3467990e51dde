package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EtlFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.analysis.cli.EtlToolTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `summary` on the turn-2 samples (relogged + compressed, kernel logger) and on damage inside buffers. */
class RealFilesSummaryTest {

    @TempDir
    Path tmp;

    @SuppressWarnings("unchecked")
    private static Map<String, Long> longs(Object o) {
        Map<String, Long> m = new TreeMap<>();
        ((Map<String, Object>) o).forEach((k, v) -> m.put(k, ((Number) v).longValue()));
        return m;
    }

    @Test
    void kernelLoggerFileCountsPerClass() {
        EtlToolTest.Run r = run("summary", "--json", sample("ShutdownPerfDiagLogger.etl"));
        assertEquals(EtlTool.OK, r.status(), r.err());
        Map<String, Object> j = MiniJson.object(r.out());
        assertEquals(17_077L, ((Number) j.get("events")).longValue());
        assertEquals(Map.of("2cb15d1d-5fc1-11d2-abe1-00a0c911f518", 13_755L, "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", 3_058L,
                "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", 256L, EtlFormat.EVENT_TRACE_GUID.toString(), 8L),
                longs(j.get("providers")), "EventTrace: 9 records with the logfile header, which is no event");
        @SuppressWarnings("unchecked")
        Map<String, Object> names = (Map<String, Object>) j.get("providerNames");
        assertEquals("Thread", names.get("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"));
        assertEquals("Image", names.get("2cb15d1d-5fc1-11d2-abe1-00a0c911f518"));
        Map<String, Long> kernel = longs(j.get("kernelEvents"));
        assertEquals(1_032L, kernel.get("Thread/End"));
        assertEquals(72L, kernel.get("Image/Load"));
        assertEquals(17_077L, kernel.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(List.of(), j.get("problems"));
    }

    @Test
    void relogggedCompressedFile() {
        EtlToolTest.Run r = run("summary", "--json", sample("SelfDescribingSingleEvent.etl"));
        assertEquals(EtlTool.OK, r.status(), r.err());
        Map<String, Object> j = MiniJson.object(r.out());
        assertEquals(22L, ((Number) j.get("events")).longValue());
        assertEquals(3L, ((Number) j.get("buffers")).longValue());
        assertEquals(2L, ((Number) j.get("compressedBuffers")).longValue());
        assertEquals(Map.of("0x02", 4L, "0x13", 1L, "0x14", 18L), longs(j.get("headerTypes")));
        EtlToolTest.Run text = run("summary", sample("SelfDescribingSingleEvent.etl"));
        assertTrue(text.out().contains("buffers:     3 x 65536 bytes (header says 3 written; 2 compressed, the size is"
                + " their capacity)"), text.out());
    }

    @Test
    void aDamagedRecordInAGoodBufferIsAProblemAndLinesAreCapped() throws IOException {
        UUID cls = UUID.fromString("11111111-2222-3333-4444-555555555555");
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.bufferSize = 1024;
        for (int i = 0; i < 200; i++) {
            b.newBuffer().record(full(true, 1, 4, 0, 7, 8, b.anchor + i, cls, u32(i)))
                    .record(full(true, 1, 4, 0, 7, 8, b.anchor + i, cls, u32(i)));
        }
        byte[] bytes = b.build();
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        bb.putInt(1024 + EtlFormat.BUFFER_HEADER_SIZE + 56, 0x00000001); // buffer #1's second record: no header
        Path one = tmp.resolve("one.etl");
        Files.write(one, bytes);
        EtlToolTest.Run r = run("summary", "--json", one.toString());
        assertEquals(EtlTool.BAD_FILE, r.status(), "before turn 2: exit 0, unknownRecords 1, no problem");
        Map<String, Object> j = MiniJson.object(r.out());
        assertEquals(399L, ((Number) j.get("events")).longValue(), "the first record of buffer #1 is kept");
        assertEquals(0L, ((Number) j.get("unknownRecords")).longValue());
        assertEquals(List.of("damaged record in buffer #1 at offset 0x400 (sequence 1): dword 0x00000001 at buffer"
                + " offset 0x80 is not a record header; the 1 record before it is kept, the 56 bytes from there to Offset"
                + " are skipped"), j.get("problems"));

        for (int i = 1; i <= 200; i++) {
            bb.putInt(i * 1024 + EtlFormat.BUFFER_HEADER_SIZE + 56, 0x00000001);
        }
        Path many = tmp.resolve("many.etl");
        Files.write(many, bytes);
        EtlToolTest.Run d = run("dump", many.toString());
        assertEquals(EtlTool.BAD_FILE, d.status());
        assertEquals(200, d.lines().size());
        String[] err = d.err().split("\n");
        assertEquals(101, err.length, "100 problems and one line counting the rest");
        assertEquals("jetw etl: " + many + ": 100 more problems are not listed (at most 100 are); 200 corrupt buffers"
                + " in all", err[100]);
    }
}
