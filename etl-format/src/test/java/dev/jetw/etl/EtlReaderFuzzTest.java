package dev.jetw.etl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static dev.jetw.etl.EtlFixtureBuilder.eventHeader;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.systemLike;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No silent partial read (issue 27, item 6): mutants of every Windows sample and of our own fixtures
 * (uncompressed 64- and 32-bit, relogged with compressed buffers). A mutant that opens must either
 * deliver every record of the original with no record time-stamped outside its session, or say so
 * in {@link EtlReader#problems()}. A mutant that "reads partially silently" (fewer records, no
 * problem) or shows times far outside the session without a problem fails the test with its recipe,
 * which replays it: {@link Mutation#apply}. Seeded, so every run sees the same mutants. Each class of
 * mutant the fuzzing found read partially without a problem before the reader checked for it is kept
 * below as one recipe with the problem it must now raise ({@link #eachClassOnceSilentIsNowAProblem}).
 */
class EtlReaderFuzzTest {

    private static final int MUTANTS_PER_SEED = 500;
    private static final long[] EXTREMES = {0, 1, 7, 8, 0x47, 0x48, 0x49, 0x7F, 0x80, 0xFF, 0xFFFF, 0x10000, 0x7FFFFFFFL,
        0x80000000L, 0xFFFFFFFFL, Long.MAX_VALUE, Long.MIN_VALUE, -1};
    private static final UUID_HOLDER IDS = new UUID_HOLDER();

    @TempDir
    Path tmp;

    /** A seed file and where its structures start (buffer headers, records, logfile-header fields). */
    record Seed(String name, byte[] bytes, int records, long[] structure) {
    }

    /** One recipe: what is written where. Its text replays it. */
    record Mutation(String kind, int at, int width, long value) {

        byte[] apply(byte[] original) {
            byte[] b = original.clone();
            ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            switch (kind) {
                case "fill" -> Arrays.fill(b, at, Math.min(b.length, at + width), (byte) value);
                case "put" -> {
                    switch (width) {
                        case 1 -> bb.put(at, (byte) value);
                        case 2 -> bb.putShort(at, (short) value);
                        case 4 -> bb.putInt(at, (int) value);
                        default -> bb.putLong(at, value);
                    }
                }
                case "flip" -> b[at] ^= (byte) (1 << value);
                case "cut" -> {
                    return Arrays.copyOf(b, at);
                }
                default -> throw new IllegalArgumentException(kind);
            }
            return b;
        }

        @Override
        public String toString() {
            return kind + "(at 0x" + Integer.toHexString(at) + ", width " + width + ", value 0x" + Long.toHexString(value) + ")";
        }
    }

    /** AMSITrace.etl's buffer #1 (file offset 0x10000, TimeStamp 2746159292683): records at 0x10048, 0x10708, 0x10878, 0x109e8. */
    static Stream<Arguments> silentBefore() {
        long recordTime = 0x10708 + 16;
        return Stream.of(
            Arguments.of("72 bytes of 0xFF over a record (1,047 of 1,583 events in the issue)", EtlSamples.AMSI,
                new Mutation("fill", 0x10878, 72, 0xFF), EtlProblem.Kind.CORRUPT_BUFFER, "0xFF fill at buffer offset 0x878, before the buffer's Offset"),
            Arguments.of("a record's marker overwritten by 0xFF", EtlSamples.AMSI,
                new Mutation("put", 0x109e8, 4, 0xFFFFFFFFL), EtlProblem.Kind.CORRUPT_BUFFER, "0xFF fill at buffer offset 0x9e8"),
            Arguments.of("our own 32-bit file: the first record of a data buffer overwritten by 0xFF", "fixture32.etl",
                new Mutation("fill", 4096 + 0x48, 16, 0xFF), EtlProblem.Kind.CORRUPT_BUFFER, "0xFF fill at buffer offset 0x48"),
            Arguments.of("a record's marker flags and header type overwritten (skipped as an unknown type)", EtlSamples.LXCORE,
                new Mutation("put", 0x204A, 2, 0xFFFF), EtlProblem.Kind.CORRUPT_BUFFER, "marker 0xffff0158 at buffer offset 0x48 is of no record type"),
            Arguments.of("the logfile header's StartTime set to the maximum (7 of 22 events in the issue)", EtlSamples.AMSI,
                new Mutation("put", 0x170, 8, Long.MAX_VALUE), EtlProblem.Kind.INCONSISTENT, "is after EndTime"),
            Arguments.of("a record's time stamp in the year 2248 (a high bit flipped)", EtlSamples.AMSI,
                new Mutation("put", (int) recordTime, 8, 2745538655076L + (1L << 50)), EtlProblem.Kind.INCONSISTENT,
                "1 record time-stamped outside the session (2020-02-17T12:48:30.420313800Z .. 2020-02-17T12:50:00.026066200Z, with 69 s of slack)"),
            Arguments.of("a record time-stamped after its buffer was flushed", EtlSamples.AMSI,
                new Mutation("put", (int) recordTime, 8, 2746159292683L + 10_000_000L), EtlProblem.Kind.INCONSISTENT,
                "1 record time-stamped after the buffer's own TimeStamp 2746159292683"),
            Arguments.of("BuffersWritten lower than the buffers in the file", EtlSamples.AMSI,
                new Mutation("put", 0x8C, 4, 4), EtlProblem.Kind.INCONSISTENT, "it says 4 buffers were written, the file holds 6"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("silentBefore")
    void eachClassOnceSilentIsNowAProblem(String what, String seedName, Mutation m, EtlProblem.Kind kind, String says) throws IOException {
        byte[] seed = seedName.startsWith("fixture") ? fixture(false) : Files.readAllBytes(EtlSamples.sample(seedName));
        Path f = tmp.resolve("regression.etl");
        Files.write(f, m.apply(seed));
        try (EtlReader r = EtlReader.open(f)) {
            EtlSamples.readAll(r);
            assertTrue(r.problems().stream().anyMatch(p -> p.kind() == kind && p.message().contains(says)), what + ": " + r.problems());
        }
    }

    @Test
    @Timeout(600) // a guard against a hang, not a speed claim
    void noMutantReadsPartiallyWithoutAProblem() throws IOException {
        List<Seed> seeds = new ArrayList<>();
        for (String name : new String[] {EtlSamples.LXCORE, EtlSamples.AMSI, EtlSamples.PRIMITIVE, EtlSamples.CLR_RUNDOWN,
            "SelfDescribingSingleEvent.etl", "ShutdownPerfDiagLogger.etl"}) {
            seeds.add(seed(name, Files.readAllBytes(EtlSamples.sample(name))));
        }
        seeds.add(seed("fixture64.etl", fixture(true)));
        seeds.add(seed("fixture32.etl", fixture(false)));
        seeds.add(seed("fixture64-relogged.etl", RelogFixture.relog(fixture(true), 4096)));

        Map<String, List<String>> silent = new TreeMap<>();
        int mutants = 0;
        int opened = 0;
        for (int s = 0; s < seeds.size(); s++) {
            Seed seed = seeds.get(s);
            Random rnd = new Random(20261124L + s);
            int count = seed.bytes.length > 1_000_000 ? MUTANTS_PER_SEED / 5 : MUTANTS_PER_SEED;
            for (int i = 0; i < count; i++) {
                Mutation m = mutation(seed, rnd);
                mutants++;
                String verdict = verdict(seed, m);
                if (verdict == null) {
                    continue;
                }
                opened += verdict.equals("ok") ? 1 : 0;
                if (!verdict.equals("ok")) {
                    silent.computeIfAbsent(seed.name, k -> new ArrayList<>()).add(m + ": " + verdict);
                }
            }
        }
        StringBuilder report = new StringBuilder();
        silent.forEach((name, list) -> report.append(name).append(": ").append(list.size()).append(" silent\n    ")
                .append(String.join("\n    ", list.subList(0, Math.min(40, list.size())))).append('\n'));
        System.out.println(mutants + " mutants, " + opened + " opened and read\n" + report);
        assertTrue(silent.isEmpty(), report.toString());
    }

    /** Null when the mutant does not open (an EtlFileException is a loud failure), "ok", or what is silently wrong. */
    private String verdict(Seed seed, Mutation m) throws IOException {
        Path f = tmp.resolve("mutant.etl");
        Files.write(f, m.apply(seed.bytes));
        try (EtlReader r = EtlReader.open(f)) {
            List<EtlRecord> all = EtlSamples.readAll(r);
            if (!r.problems().isEmpty()) {
                return "ok";
            }
            if (all.size() < seed.records) {
                return all.size() + " of " + seed.records + " records, problems: none";
            }
            EtlLogfileInfo h = r.header();
            for (EtlRecord e : all) { // far outside the session: a day, or before the start (the reader's slack is smaller)
                double seconds = r.timestamps().secondsSinceStart(e.rawTimestamp());
                if (seconds < -86_400 || h.endTime() != 0 && seconds > (h.endTime() - h.startTime()) / 1e7 + 86_400) {
                    return "record at 0x" + Long.toHexString(e.fileOffset()) + " " + seconds + " s after the start, problems: none";
                }
            }
            return "ok";
        } catch (EtlFileException e) {
            return null;
        }
    }

    private Seed seed(String name, byte[] bytes) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, bytes);
        List<Long> at = new ArrayList<>();
        int records;
        try (EtlReader r = EtlReader.open(f)) {
            r.buffers().forEach(b -> at.add(b.fileOffset()));
            List<EtlRecord> all = EtlSamples.readAll(r);
            all.forEach(e -> at.add(e.fileOffset()));
            records = all.size();
            assertEquals(List.of(), r.problems(), name);
        }
        for (int field = 0; field < 0x118; field += 4) { // the logfile header (64-bit layout; 32-bit is close enough)
            at.add((long) EtlFormat.BUFFER_HEADER_SIZE + EtlFormat.SYSTEM_HEADER_SIZE + field);
        }
        return new Seed(name, bytes, records, at.stream().mapToLong(Long::longValue).toArray());
    }

    private static Mutation mutation(Seed s, Random rnd) {
        int n = s.bytes.length;
        int kind = rnd.nextInt(10);
        if (kind < 3) { // a run of one value: 0xFF (the fill), 0, or anything
            int at = rnd.nextBoolean() ? (int) s.structure[rnd.nextInt(s.structure.length)] + 8 * rnd.nextInt(8) : rnd.nextInt(n);
            int[] lengths = {8, 16, 24, 72, 1 + rnd.nextInt(256)};
            int[] values = {0xFF, 0xFF, 0x00, rnd.nextInt(256)};
            return new Mutation("fill", Math.min(at, n - 1), lengths[rnd.nextInt(lengths.length)], values[rnd.nextInt(values.length)]);
        }
        if (kind < 7) { // an extreme value in a structure's field
            int width = new int[] {1, 2, 4, 8}[rnd.nextInt(4)];
            int at = (int) Math.min(n - width, s.structure[rnd.nextInt(s.structure.length)] + 2 * rnd.nextInt(0x28));
            long value = rnd.nextInt(4) == 0 ? rnd.nextLong() : EXTREMES[rnd.nextInt(EXTREMES.length)];
            return new Mutation("put", at & ~(Math.min(width, 4) - 1), width, value);
        }
        if (kind < 9) {
            return new Mutation("flip", rnd.nextInt(n), 1, rnd.nextInt(8));
        }
        return new Mutation("cut", rnd.nextInt(n), 0, 0);
    }

    /** Our own fixture: four data buffers of every record type the reader decodes. */
    static byte[] fixture(boolean is64) {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.is64 = is64;
        long t = b.anchor;
        for (int buffer = 0; buffer < 4; buffer++) {
            b.newBuffer();
            for (int i = 0; i < 12; i++) {
                t += 10_000;
                b.record(instance(is64, 1, 4, 0, 11, 4242, t, IDS.classGuid, 5 + i, 0, null, u32(i)));
                b.record(full(is64, 2, 4, 0, 12, 4242, t + 1, IDS.other, utf16z("x" + i)));
                b.record(eventHeader(is64, 13, 4242, t + 2, IDS.provider, 7, 0, 11, 4, 1, 0, 0L, IDS.activity,
                        new byte[][] {u32(i)}, new int[] {4}, u32(i)));
                b.record(systemLike(is64 ? 0x02 : 0x01, 0x03, 0x01, 21, 22, t + 3, u32(0xAA)));
            }
        }
        return b.build();
    }

    /** GUIDs of the fixture's records. */
    private static final class UUID_HOLDER {
        final java.util.UUID classGuid = java.util.UUID.fromString("7a5b8b9a-f22e-438a-9533-5236198b6091");
        final java.util.UUID other = java.util.UUID.fromString("234dd2f8-bb58-4d18-9b42-a9b3b8b0fe19");
        final java.util.UUID provider = java.util.UUID.fromString("d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615");
        final java.util.UUID activity = java.util.UUID.fromString("01234567-89ab-cdef-0123-456789abcdef");
    }
}
