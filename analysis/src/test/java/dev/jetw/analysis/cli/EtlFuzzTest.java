package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFileException;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.RelogFixture;
import dev.jetw.analysis.kernel.KernelDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile input: mutants of the shared samples and of our own files (jetw, merged jetw + kernel,
 * relogged with compressed buffers) through the reader, the kernel and jetw decoders and the commands.
 * Bit flips anywhere, extreme values in buffer and record headers (sizes, Offset, flags, markers) and
 * in compressed streams, truncations. Every mutant must end in records and problems, or one
 * {@link EtlFileException}: no other exception, never more events than the original, a decoded-buffer
 * capacity within the 16 MiB bound, and never fewer events than the original while `summary` exits 0
 * (a silent partial read). Seeded, so every run sees the same mutants.
 */
class EtlFuzzTest {

    private static final int MUTANTS = 2_400;
    private static final int[] EXTREMES = {0, 1, 7, 8, 0x47, 0x48, 0x49, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
        0xFFFFFFFF, 0xC0020002, 0xC0110002, 0x40, 0x61};
    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path tmp;

    /** A seed file, its structure (buffer and record offsets) and its event count. */
    private record Seed(String name, byte[] bytes, long[] structure, int events, int weight, boolean commands) {
    }

    private Seed seed(String name, byte[] bytes, int weight, boolean commands) throws IOException {
        Path f = tmp.resolve("seed-" + name);
        Files.write(f, bytes);
        List<Long> at = new ArrayList<>();
        int events = 0;
        try (EtlReader r = EtlReader.open(f)) {
            r.buffers().forEach(b -> at.add(b.fileOffset()));
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                at.add(e.fileOffset());
                events++;
            }
            assertEquals(0, r.corruptBuffers(), name + ": " + r.problems()); // the 4-buffer cut is a truncation
        }
        return new Seed(name, bytes, at.stream().mapToLong(Long::longValue).toArray(), events, weight, commands);
    }

    private static byte[] shared(String name) throws IOException {
        return Files.readAllBytes(Paths.get(System.getProperty("jetw.samples.dir"), name));
    }

    private static byte[] mutate(Seed s, Random rnd) {
        byte[] b = s.bytes.clone();
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int kind = rnd.nextInt(10);
        if (kind < 4) { // bit flips anywhere
            for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
                int p = rnd.nextInt(b.length);
                b[p] ^= (byte) (1 << rnd.nextInt(8));
            }
        } else if (kind < 8) { // an extreme value in a buffer or record header
            long base = s.structure[rnd.nextInt(s.structure.length)];
            int p = (int) Math.min(b.length - 4, base + 2 * rnd.nextInt(0x28));
            if (rnd.nextBoolean()) {
                bb.putInt(p, EXTREMES[rnd.nextInt(EXTREMES.length)]);
            } else {
                bb.putShort(p, (short) EXTREMES[rnd.nextInt(EXTREMES.length)]);
            }
        } else if (kind < 9) { // random bytes in a run (compressed streams, payloads)
            int p = rnd.nextInt(b.length);
            for (int i = 0; i < 1 + rnd.nextInt(16) && p + i < b.length; i++) {
                b[p + i] = (byte) rnd.nextInt();
            }
        } else { // truncation
            return Arrays.copyOf(b, rnd.nextInt(b.length));
        }
        return b;
    }

    @Test
    @Timeout(300) // a guard against a hang (an endless loop fails the test instead of stalling the build), not a speed claim
    void mutantsNeverThrowNeverHangAndNeverGainEvents() throws IOException {
        List<Seed> seeds = new ArrayList<>();
        seeds.add(seed("SelfDescribingSingleEvent.etl", shared("SelfDescribingSingleEvent.etl"), 6, true));
        seeds.add(seed("lxcore_kernel.etl", shared("lxcore_kernel.etl"), 2, true));
        seeds.add(seed("primitive-types.etl", shared("primitive-types.etl"), 2, true));
        seeds.add(seed("PerfViewData.clrRundown.etl", shared("PerfViewData.clrRundown.etl"), 2, true));
        seeds.add(seed("AMSITrace.etl", shared("AMSITrace.etl"), 1, false));
        seeds.add(seed("jetw.etl", JetwTraceFixture.build(), 4, true));
        seeds.add(seed("merged.etl", MergedTraceTest.merged(), 4, true));
        seeds.add(seed("relogged-merged.etl", RelogFixture.relog(MergedTraceTest.merged(), 4096), 6, true));
        byte[] kernel = shared("ShutdownPerfDiagLogger.etl");
        seeds.add(seed("ShutdownPerfDiagLogger-first-4-buffers.etl", Arrays.copyOf(kernel, 4 * 65536), 1, false));
        List<Seed> draw = new ArrayList<>();
        for (Seed s : seeds) {
            for (int i = 0; i < s.weight; i++) {
                draw.add(s);
            }
        }
        Random rnd = new Random(20261123L);
        Path f = tmp.resolve("mutant.etl");
        int opened = 0;
        int withProblems = 0;
        List<String> silent = new ArrayList<>();
        for (int i = 0; i < MUTANTS; i++) {
            Seed s = draw.get(rnd.nextInt(draw.size()));
            byte[] m = mutate(s, rnd);
            Files.write(f, m);
            String what = "mutant " + i + " of " + s.name;
            try (EtlReader r = EtlReader.open(f)) {
                opened++;
                assertTrue(r.bufferCapacity() <= 16 * 1024 * 1024, what);
                int events = 0;
                for (EtlRecord e = r.next(); e != null; e = r.next()) {
                    events++;
                    KernelDecoder.decode(e);
                    JetwEvent.decode(e);
                }
                assertTrue(events <= s.events, what + ": " + events + " records, the original has " + s.events);
                if (events < s.events && EtlTool.run(new String[]{"summary", f.toString()}, NOWHERE, NOWHERE) == EtlTool.OK) {
                    silent.add(what + ": " + events + " of " + s.events + " records, exit 0"); // a partial read nobody is told of
                }
                withProblems += r.problems().isEmpty() ? 0 : 1;
                assertTrue(r.problems().size() <= EtlReader.MAX_PROBLEMS + 1, what);
            } catch (EtlFileException e) {
                assertTrue(e.getMessage().startsWith(f.toString()), what + ": " + e.getMessage());
            }
            if (s.commands && i % 6 == 0) {
                for (String command : new String[]{"summary", "dump", "tree", "chrome-trace"}) {
                    String[] args = command.equals("chrome-trace")
                            ? new String[]{command, "-o", tmp.resolve("out.json").toString(), f.toString()}
                            : new String[]{command, f.toString()};
                    int status = EtlTool.run(args, NOWHERE, NOWHERE);
                    assertTrue(status == EtlTool.OK || status == EtlTool.BAD_FILE || status == EtlTool.INCOMPLETE,
                            what + ": " + command + " exit " + status);
                }
            }
        }
        assertEquals(List.of(), silent, "mutants read partially with exit 0 (issue 27, item 6)");
        assertTrue(opened > MUTANTS / 2, "most mutants still open: " + opened);
        assertTrue(withProblems > MUTANTS / 10, "the mutations are seen as damage: " + withProblems);
    }
}
