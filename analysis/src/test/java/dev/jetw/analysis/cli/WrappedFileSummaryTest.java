package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.SessionNotice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code summary} of a file that overwrites its oldest events by design. A jetw ring's file or dump (buffer 0 has jetw's
 * RING notice) that counts no loss: every END without START is a call begun in the buffers the ring overwrote (nested
 * ones too: a call running when the file begins ends after the calls it made in the file), so a note and exit 0; with
 * a loss counted in the header, "START lost", exit 3. A wrapped circular file (oldest buffer numbered past 1): the ENDs
 * beyond the STARTs, as before (Windows' per-CPU buffers need not hold a thread's events in time order). Any other file:
 * "START lost", exit 3.
 */
class WrappedFileSummaryTest {

    @TempDir
    Path tmp;

    /**
     * Thread 11 of the file's process: an END (a call begun before the file), then a whole call, then an END whose START is
     * missing although a call of the thread began in the file (the call running when the file began, which made the
     * whole call). Header LogFileMode {@code mode} and EventsLost {@code lost}; with {@code ring} a RING notice; the data
     * buffer numbered {@code firstSequence}.
     */
    private Path trace(int mode, boolean ring, int lost, int firstSequence) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.logFileMode = mode;
        b.eventsLost = lost;
        b.newBuffer();
        if (ring) {
            b.record(EtlFixtureBuilder.full(true, EventType.INFO, 4, 0, 0, b.pid, JetwTraceFixture.ts(b, 0.5),
                    SessionNotice.CLASS, SessionNotice.encode(SessionNotice.RING, "buffering ring of 8 buffers")));
        }
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 1.0, 7, 5, JetwTraceFixture.end(1, "")));
        b.record(JetwTraceFixture.call(b, EventType.START, 11, 3.0, 9, 5, u32(1)));
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 4.0, 9, 5, JetwTraceFixture.end(1, "")));
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 5.0, 5, 0, JetwTraceFixture.end(1, "")));
        if (firstSequence != 1) {
            b.sequence(0, firstSequence);
        }
        Path f = tmp.resolve("m" + mode + ring + lost + "-" + firstSequence + ".etl");
        Files.write(f, b.build());
        return f;
    }

    private static String[] run(Path f, boolean json, int[] status) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = json ? new String[] {"summary", "--json", f.toString()} : new String[] {"summary", f.toString()};
        status[0] = EtlTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        return new String[] {text, "exit " + status[0] + "\n" + text + "\nstderr: " + err.toString(StandardCharsets.UTF_8)};
    }

    @ParameterizedTest(name = "--json {0}")
    @CsvSource({"false", "true"})
    void aRingsEndsWithoutStartAreANoteNestedOnesToo(boolean json) throws IOException {
        int[] status = new int[1];
        String[] r = run(trace(1, true, 0, 1), json, status);
        assertEquals(0, status[0], r[1]);
        assertTrue(r[0].contains("2 ENDs have no START in this file: calls begun in the buffers the buffering ring overwrote"
                + " by design"), r[1]);
        assertFalse(r[0].contains("START lost"), r[1]);
        assertTrue(json ? r[0].contains("\"problems\":[]") : r[0].contains("problems: none"), r[1]);
        assertTrue(json || r[0].contains("events:      4 (not counting the logfile header and the ring notice)"), r[1]);
    }

    /** Files where an END without START is a loss: a ring's that counts a loss, a plain file, a circular file that never wrapped. */
    @ParameterizedTest(name = "LogFileMode {0}, RING notice {1}, EventsLost {2}")
    @CsvSource({"1, true, 3", "1, false, 0", "2, false, 0", "1024, false, 0"})
    void endsWithoutStartAreStillALossElsewhere(int mode, boolean ring, int lost) throws IOException {
        int[] status = new int[1];
        String[] r = run(trace(mode, ring, lost, 1), false, status);
        assertEquals(3, status[0], r[1]);
        assertTrue(r[0].contains("unbalanced jetw calls: 1 START and 3 END events (2 ENDs without START: START lost)"), r[1]);
        assertFalse(r[0].contains("no START in this file"), r[1]);
    }

    /** A wrapped circular file (oldest data buffer number 3): the ENDs beyond the STARTs are no loss, as before. */
    @Test
    void aWrappedCircularFilesExtraEndsAreNoLoss() throws IOException {
        int[] status = new int[1];
        String[] r = run(trace(2, false, 0, 3), false, status);
        assertEquals(0, status[0], r[1]);
        assertTrue(r[0].contains("the file's oldest buffer is number 3: the 2 buffers before it are not in this file"), r[1]);
        assertTrue(r[0].contains("problems: none"), r[1]);
    }

    /**
     * A circular file written by ETW on several CPUs: a thread's END in the first buffer, its START in the second (per-CPU
     * buffers are not in time order). Balanced, so no loss: order in the file is not read as loss there.
     */
    @Test
    void aCircularFilesPerCpuBuffersOutOfOrderAreNoLoss() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.logFileMode = 2;
        b.newBuffer();
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 5.0, 9, 0, JetwTraceFixture.end(1, "")));
        b.newBuffer();
        b.record(JetwTraceFixture.call(b, EventType.START, 11, 1.0, 9, 0, u32(1)));
        Path f = tmp.resolve("percpu.etl");
        Files.write(f, b.build());
        int[] status = new int[1];
        String[] r = run(f, false, status);
        assertEquals(0, status[0], r[1]);
        assertTrue(r[0].contains("problems: none"), r[1]);
    }

    /** {@code dump --json} names a RING notice's kind "ring", as it names a WRITER's "writer". */
    @Test
    void dumpNamesTheRingNotice() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = EtlTool.run(new String[] {"dump", "--json", trace(1, true, 0, 1).toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text);
        assertTrue(text.contains("\"notice\":{\"kind\":\"ring\",\"text\":\"buffering ring of 8 buffers\"}"), text);
    }

    /** A circular file whose oldest data buffer is number 2 (one overwritten): the note says "the buffer", not "the 1 buffers". */
    @Test
    void oneOverwrittenBufferIsNamedInTheSingular() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.logFileMode = 2;
        b.newBuffer();
        b.record(JetwTraceFixture.call(b, EventType.START, 11, 3.0, 9, 0, u32(1)));
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 4.0, 9, 0, JetwTraceFixture.end(1, "")));
        b.sequence(0, 2);
        Path f = tmp.resolve("circular.etl");
        Files.write(f, b.build());
        int[] status = new int[1];
        String[] r = run(f, false, status);
        assertEquals(0, status[0], r[1]);
        assertTrue(r[0].contains("the file's oldest buffer is number 2: the buffer before it is not in this file"), r[1]);
    }

    /** Data buffers numbered 1, 3, 4: a number missing between them is counted too (only a gap before the first was). */
    @Test
    void aGapBetweenBuffersIsCounted() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.logFileMode = 2;
        for (int i = 0; i < 3; i++) {
            b.newBuffer();
            b.record(JetwTraceFixture.call(b, EventType.START, 11, 3.0 + i, 9 + i, 0, u32(1)));
            b.record(JetwTraceFixture.call(b, EventType.END, 11, 3.5 + i, 9 + i, 0, JetwTraceFixture.end(1, "")));
        }
        b.sequence(1, 3).sequence(2, 4);
        Path f = tmp.resolve("between.etl");
        Files.write(f, b.build());
        int[] status = new int[1];
        String[] r = run(f, false, status);
        assertTrue(r[0].contains("1 buffer number between its oldest and newest is not in this file"), r[1]);
    }
}
