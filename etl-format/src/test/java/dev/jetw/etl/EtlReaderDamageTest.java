package dev.jetw.etl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static dev.jetw.etl.EtlSamples.AMSI;
import static dev.jetw.etl.EtlSamples.readAll;
import static dev.jetw.etl.EtlSamples.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged copies of AMSITrace.etl (6 buffers of 64 KiB; file order: #1 seq 4 with 11 events, #2 seq 5
 * with 1, #3 seq 1 with 1, #4 seq 2 with 2, #5 seq 3 with 4) and files that are not .etl at all.
 */
class EtlReaderDamageTest {

    private static final int B = 65536;

    @TempDir
    Path tmp;

    private static byte[] amsi() throws IOException {
        return Files.readAllBytes(sample(AMSI));
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private static long events(List<EtlRecord> all) {
        return all.stream().filter(r -> r.headerType() == EtlFormat.HT_EVENT_HEADER64).count();
    }

    @Test
    void truncatedMidBufferYieldsTheIntactBuffersAndReportsTheCut() throws IOException {
        Path f = write("cut.etl", Arrays.copyOf(amsi(), 3 * B + 1000)); // buffers #0-#2 intact, #3 cut
        try (EtlReader r = EtlReader.open(f)) {
            List<EtlRecord> all = readAll(r);
            assertEquals(11 + 1, events(all), "buffers #1 and #2");
            assertEquals(3, r.buffers().size());
            assertTrue(r.isTruncated());
            assertEquals(1, r.problems().size());
            EtlProblem p = r.problems().get(0);
            assertEquals(EtlProblem.Kind.TRUNCATED, p.kind());
            assertEquals(3L * B, p.offset());
            assertTrue(p.message().contains("0x30000") && p.message().contains("1000 bytes into buffer #3"), p.message());
            assertEquals(0, r.corruptBuffers());
        }
    }

    @Test
    void missingWholeBuffersAreATruncationToo() throws IOException {
        Path f = write("short.etl", Arrays.copyOf(amsi(), 4 * B));
        try (EtlReader r = EtlReader.open(f)) {
            assertEquals(11 + 1 + 1, events(readAll(r)));
            assertTrue(r.isTruncated());
            assertTrue(r.problems().get(0).message().contains("6 buffers"), r.problems().toString());
        }
    }

    @Test
    void aBufferWithAFlippedOffsetIsSkippedAndCounted() throws IOException {
        // Records end at Offset (0x30), per etl-format.md §13; the reader once used SavedOffset (0x04).
        byte[] bytes = amsi();
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int at = B + EtlFormat.BH_OFFSET; // buffer #1 (11 events)
        bb.putInt(at, bb.getInt(at) ^ 0x10000); // one bit: 30776 -> 96312, past the buffer
        try (EtlReader r = EtlReader.open(write("flip.etl", bytes))) {
            List<EtlRecord> all = readAll(r);
            assertEquals(19 - 11, events(all));
            assertEquals(1, r.corruptBuffers());
            assertFalse(r.isTruncated());
            EtlProblem p = r.problems().get(0);
            assertEquals(EtlProblem.Kind.CORRUPT_BUFFER, p.kind());
            assertEquals(B, p.offset());
            assertTrue(p.message().contains("buffer #1 at offset 0x10000") && p.message().contains("Offset 0x17838"),
                    p.message());
        }
    }

    @Test
    void savedOffsetIsNotWhereRecordsEnd() throws IOException {
        byte[] bytes = amsi();
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        bb.putInt(B + EtlFormat.BH_SAVED_OFFSET, 0x48); // as if empty: Offset still says 30776
        try (EtlReader r = EtlReader.open(write("saved.etl", bytes))) {
            assertEquals(19, events(readAll(r)));
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
    }

    @Test
    void anOffsetThatCutsARecordKeepsTheRecordsBeforeIt() throws IOException {
        // Before turn 2 the whole buffer was dropped; its intact records are now kept and the damage reported.
        byte[] bytes = amsi();
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int buffer = 5 * B; // buffer #5: 4 events, Offset 12928
        bb.putInt(buffer + EtlFormat.BH_SAVED_OFFSET, 12928 - 8);
        bb.putInt(buffer + EtlFormat.BH_OFFSET, 12928 - 8); // aligned, in range: cuts the last record
        try (EtlReader r = EtlReader.open(write("cutrec.etl", bytes))) {
            assertEquals(19 - 1, events(readAll(r)));
            assertEquals(1, r.corruptBuffers());
            String m = r.problems().get(0).message();
            assertTrue(m.startsWith("damaged record in buffer #5 at offset 0x50000") && m.contains("has size")
                    && m.contains("the 3 records before it are kept"), m);
        }
    }

    @Test
    void aRecordSizeRunningPastItsBufferIsCorruption() throws IOException {
        byte[] bytes = amsi();
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        bb.putShort(3 * B + EtlFormat.BUFFER_HEADER_SIZE, (short) 0xFFF0); // first record of buffer #3
        try (EtlReader r = EtlReader.open(write("size.etl", bytes))) {
            assertEquals(19 - 1, events(readAll(r)));
            assertEquals(1, r.corruptBuffers());
            assertTrue(r.problems().get(0).message().contains("buffer #3 at offset 0x30000"), r.problems().toString());
            assertTrue(r.problems().get(0).message().contains("size 65520"), r.problems().toString());
        }
    }

    @Test
    void aBufferFlaggedCompressedThatIsNotIsACorruptBuffer() throws IOException {
        byte[] bytes = amsi();
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        bb.putShort(2 * B + EtlFormat.BH_BUFFER_FLAG, (short) 0x61); // buffer #2: 1 event, plain records
        try (EtlReader r = EtlReader.open(write("compressed.etl", bytes))) {
            assertEquals(19 - 1, events(readAll(r)));
            assertEquals(1, r.corruptBuffers());
            assertEquals(1, r.compressedBuffers());
            EtlProblem p = r.problems().get(0);
            assertEquals(2L * B, p.offset());
            assertTrue(p.message().startsWith("corrupt buffer #2 at offset 0x20000") && p.message().contains("compressed"),
                    p.message());
        }
    }

    @Test
    void filesThatAreNotEtl() throws IOException {
        Path missing = tmp.resolve("nope.etl");
        EtlFileException e1 = assertThrows(EtlFileException.class, () -> EtlReader.open(missing));
        assertEquals(missing + ": no such file", e1.getMessage());

        Path tiny = write("tiny.etl", "hello".getBytes(StandardCharsets.US_ASCII));
        EtlFileException e2 = assertThrows(EtlFileException.class, () -> EtlReader.open(tiny));
        assertTrue(e2.getMessage().startsWith(tiny + ": not an .etl file: only 5 bytes"), e2.getMessage());

        byte[] text = new byte[100_000];
        Arrays.fill(text, (byte) 'a');
        Path txt = write("text.etl", text);
        EtlFileException e3 = assertThrows(EtlFileException.class, () -> EtlReader.open(txt));
        assertTrue(e3.getMessage().startsWith(txt + " at offset 0x48: not an .etl file: the first record"), e3.getMessage());

        EtlFileException e4 = assertThrows(EtlFileException.class, () -> EtlReader.open(tmp));
        assertTrue(e4.getMessage().contains("is a directory"), e4.getMessage());

        byte[] headerOnly = Arrays.copyOf(amsi(), 1000); // valid start, cut inside the header buffer
        Path h = write("head.etl", headerOnly);
        EtlFileException e5 = assertThrows(EtlFileException.class, () -> EtlReader.open(h));
        assertTrue(e5.getMessage().contains("truncated inside the header buffer"), e5.getMessage());
    }
}
