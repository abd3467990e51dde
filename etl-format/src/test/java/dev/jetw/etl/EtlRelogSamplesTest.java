package dev.jetw.etl;

import dev.jetw.etl.lz77.Lz77Exception;
import dev.jetw.etl.lz77.PlainLz77;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlSamples.readAll;
import static dev.jetw.etl.EtlSamples.sample;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Buffers as they are on disk (etl-format.md §13): variable sizes, records up to Offset, compressed
 * buffers; on the relogged sample SelfDescribingSingleEvent.etl and on relogged copies of our own files.
 */
class EtlRelogSamplesTest {

    static final String SELF_DESCRIBING = "SelfDescribingSingleEvent.etl";
    private static final UUID CLASS = UUID.fromString("11111111-2222-3333-4444-555555555555");

    @TempDir
    Path tmp;

    @Test
    void selfDescribingSingleEventHas23RecordsInBuffersOfThreeSizes() throws IOException {
        try (EtlReader r = EtlReader.open(sample(SELF_DESCRIBING))) {
            List<EtlRecord> all = readAll(r);
            assertEquals(23, all.size(), "22 events + the logfile header");
            assertEquals(22, all.stream().filter(e -> !e.isLogfileHeader()).count());
            assertTrue(r.problems().isEmpty(), r.problems().toString());
            assertEquals(0, r.unknownRecords());
            assertEquals(List.of(0x400, 0x1809, 0xE2), r.buffers().stream().map(EtlBufferInfo::bufferSize).toList());
            assertEquals(List.of(0L, 0x400L, 0x1C09L), r.buffers().stream().map(EtlBufferInfo::fileOffset).toList());
            assertEquals(2, r.compressedBuffers());
            assertEquals(65536, r.bufferCapacity());
            EtlBufferInfo zero = r.buffers().get(0);
            assertEquals(0x1B8, zero.savedOffset());
            assertEquals(0x208, zero.offset());
            // The second SYSTEM record lies between SavedOffset and Offset: a reader stopping at SavedOffset misses it.
            List<EtlRecord> late = all.stream().filter(e -> e.bufferIndex() == 0 && e.fileOffset() >= 0x1B8).toList();
            assertEquals(1, late.size());
            assertEquals(EtlFormat.HT_SYSTEM64, late.get(0).headerType());
            assertEquals(0x1B8 + late.get(0).size() + 7 & ~7, 0x208, "it ends at Offset");
        }
    }

    @Test
    void everyCompressedBufferOfTheSampleDecodesToExactlyOffsetMinusTheHeader() throws IOException, Lz77Exception {
        byte[] file = Files.readAllBytes(sample(SELF_DESCRIBING));
        ByteBuffer bb = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int compressed = 0;
        for (int at = 0; at < file.length; at += bb.getInt(at)) {
            if ((bb.getShort(at + EtlFormat.BH_BUFFER_FLAG) & EtlFormat.BUFFER_FLAG_COMPRESSED) == 0) {
                continue;
            }
            compressed++;
            int size = bb.getInt(at);
            int expected = bb.getInt(at + EtlFormat.BH_OFFSET) - EtlFormat.BUFFER_HEADER_SIZE;
            byte[] out = new byte[65536];
            int n = PlainLz77.decompress(file, at + EtlFormat.BUFFER_HEADER_SIZE, size - EtlFormat.BUFFER_HEADER_SIZE,
                    out, 0, out.length);
            assertEquals(expected, n, "buffer at 0x" + Integer.toHexString(at));
            int first = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            assertEquals(0xC0, first >>> 24, "the decoded bytes start with a record marker");
        }
        assertEquals(2, compressed);
    }

    /** 300 FULL64 records of 56 bytes in 4 KiB buffers: 71 per buffer ((4096 - 0x48) / 56), buffer #5 holds 16. */
    private byte[] ownFile() {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        for (int i = 0; i < 300; i++) {
            b.record(full(true, 1 + i % 2, 4, 0, 7, 8, b.anchor + i, CLASS, u32(i)));
        }
        return b.build();
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    @Test
    void aRelogggedCopyOfOurFileReadsTheSameRecords() throws IOException {
        byte[] plain = ownFile();
        byte[] relogged = RelogFixture.relog(plain, 4096);
        assertTrue(relogged.length < plain.length);
        List<EtlRecord> a = readAll(write("plain.etl", plain));
        try (EtlReader r = EtlReader.open(write("relog.etl", relogged))) {
            List<EtlRecord> b = readAll(r);
            assertTrue(r.problems().isEmpty(), r.problems().toString());
            assertEquals(a.size(), b.size());
            assertEquals(301, b.size());
            for (int i = 0; i < a.size(); i++) {
                assertArrayEquals(a.get(i).userData(), b.get(i).userData());
                assertEquals(a.get(i).rawTimestamp(), b.get(i).rawTimestamp());
            }
            assertEquals(r.buffers().size() - 1, r.compressedBuffers());
        }
    }

    /** The relogged own file, with buffer #1 (the first compressed one) at 0x200. */
    private byte[] relogged() {
        return RelogFixture.relog(ownFile(), 4096);
    }

    private List<EtlProblem> problemsOf(byte[] bytes, String name, int[] records) throws IOException {
        try (EtlReader r = EtlReader.open(write(name, bytes))) {
            records[0] = readAll(r).size();
            return new ArrayList<>(r.problems());
        }
    }

    @Test
    void hostileCompressedStreamsAreCorruptBuffersNamingTheirOffset() throws IOException {
        int[] n = new int[1];
        // A stream that decodes to more than Offset - 0x48: Offset lowered by 8.
        byte[] more = relogged();
        ByteBuffer m = ByteBuffer.wrap(more).order(ByteOrder.LITTLE_ENDIAN);
        m.putInt(0x200 + EtlFormat.BH_OFFSET, m.getInt(0x200 + EtlFormat.BH_OFFSET) - 8);
        List<EtlProblem> p = problemsOf(more, "more.etl", n);
        assertEquals(1, p.size(), p.toString());
        assertEquals(0x200, p.get(0).offset());
        assertTrue(p.get(0).message().startsWith("corrupt buffer #1 at offset 0x200") && p.get(0).message()
                .contains("runs past the expected") || p.get(0).message().contains("literal past the expected"), p.toString());
        assertEquals(301 - 71, n[0], "buffer #1's 71 records are skipped, the others read");

        // A match reaching before the start of the output: the first item made a match of distance 8.
        byte[] before = relogged();
        int stream = 0x200 + EtlFormat.BUFFER_HEADER_SIZE;
        before[stream + 3] = (byte) 0x80; // first flag bit 1: a match token first
        before[stream + 4] = 0x38;        // distance (0x38 >> 3) + 1 = 8, nothing written yet
        before[stream + 5] = 0;
        p = problemsOf(before, "before.etl", n);
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).message().contains("before the start of the output"), p.toString());

        // A stream cut short: buffer #1's BufferSize lowered, the bytes after it removed.
        byte[] whole = relogged();
        ByteBuffer w = ByteBuffer.wrap(whole).order(ByteOrder.LITTLE_ENDIAN);
        int size = w.getInt(0x200);
        w.putInt(0x200, size - 100);
        byte[] cut = new byte[whole.length - 100];
        System.arraycopy(whole, 0, cut, 0, 0x200 + size - 100);
        System.arraycopy(whole, 0x200 + size, cut, 0x200 + size - 100, whole.length - 0x200 - size);
        p = problemsOf(cut, "cut.etl", n);
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).message().startsWith("corrupt buffer #1 at offset 0x200"), p.toString());
        assertTrue(p.get(0).message().contains("decodes to"), p.toString());
        assertEquals(301 - 71, n[0]);
    }

    @Test
    void aBrokenBufferChainIsReportedAndTheRestSkippedWhenSizesVary() throws IOException {
        byte[] bytes = relogged();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(0x200, 7); // BufferSize below a header
        int[] n = new int[1];
        List<EtlProblem> p = problemsOf(bytes, "chain.etl", n);
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).message().contains("BufferSize 7 is outside") && p.get(0).message()
                .contains("the next buffer cannot be located"), p.toString());
        assertEquals(1, n[0], "only buffer 0's logfile header");
    }

    @Test
    void aBadBufferSizeInAFixedStrideFileIsSteppedOver() throws IOException {
        byte[] bytes = ownFile();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(4096, 4096 ^ 0x40); // buffer #1
        int[] n = new int[1];
        List<EtlProblem> p = problemsOf(bytes, "stride.etl", n);
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).message().startsWith("corrupt buffer #1 at offset 0x1000: BufferSize 4160 differs"), p.toString());
        assertEquals(301 - 71, n[0]);
    }

    @Test
    void problemLinesAreCapped() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.bufferSize = 1024;
        for (int i = 0; i < 300; i++) {
            b.newBuffer().record(full(true, 1, 4, 0, 7, 8, b.anchor + i, CLASS, u32(i)));
        }
        byte[] bytes = b.build();
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i <= 300; i++) {
            bb.putInt(i * 1024 + EtlFormat.BUFFER_HEADER_SIZE, 0x01020304); // every record damaged
        }
        try (EtlReader r = EtlReader.open(write("many.etl", bytes))) {
            assertEquals(1, readAll(r).size());
            assertEquals(300, r.corruptBuffers());
            List<EtlProblem> p = r.problems();
            assertEquals(EtlReader.MAX_PROBLEMS + 1, p.size());
            assertEquals("200 more problems are not listed (at most 100 are); 300 corrupt buffers in all",
                    p.get(p.size() - 1).message());
        }
        assertTrue(Arrays.equals(bytes, Files.readAllBytes(tmp.resolve("many.etl"))));
    }
}
