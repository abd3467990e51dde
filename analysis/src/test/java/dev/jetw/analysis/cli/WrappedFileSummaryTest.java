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
 * {@code summary} of a file that overwrites its oldest events by design (its header's LogFileMode has CIRCULAR or
 * BUFFERING, or buffer 0 has jetw's RING notice, as a portable buffering ring's file and dump do): the ENDs that come
 * before their thread's first START are calls begun in what it overwrote, so the summary says so in a note and exits
 * 0; any other file with them, and a startless END later on a thread in such a file, is still "START lost", exit 3.
 */
class WrappedFileSummaryTest {

    @TempDir
    Path tmp;

    /**
     * Thread 11: two ENDs before its first START, then a whole call; with {@code lateLoss} one more END after that
     * call, whose START is missing although the thread's calls began in the file. Header LogFileMode {@code mode};
     * with {@code ring} a RING notice.
     */
    private Path trace(int mode, boolean ring, boolean lateLoss) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.logFileMode = mode;
        b.newBuffer();
        if (ring) {
            b.record(EtlFixtureBuilder.full(true, EventType.INFO, 4, 0, 0, b.pid, JetwTraceFixture.ts(b, 0.5),
                    SessionNotice.CLASS, SessionNotice.encode(SessionNotice.RING, "buffering ring of 8 buffers")));
        }
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 1.0, 7, 0, JetwTraceFixture.end(1, "")));
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 2.0, 8, 0, JetwTraceFixture.end(1, "")));
        b.record(JetwTraceFixture.call(b, EventType.START, 11, 3.0, 9, 0, u32(1)));
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 4.0, 9, 0, JetwTraceFixture.end(1, "")));
        if (lateLoss) {
            b.record(JetwTraceFixture.call(b, EventType.END, 11, 5.0, 10, 0, JetwTraceFixture.end(1, "")));
        }
        Path f = tmp.resolve("m" + mode + ring + lateLoss + ".etl");
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

    @ParameterizedTest(name = "LogFileMode {0}, RING notice {1}, --json {2}")
    @CsvSource({"1, true, false", "1, true, true", "2, false, false", "1026, false, true", "1024, false, false"})
    void leadingEndsAreANoteInAFileThatOverwritesByDesign(int mode, boolean ring, boolean json) throws IOException {
        int[] status = new int[1];
        String[] r = run(trace(mode, ring, false), json, status);
        assertEquals(0, status[0], r[1]);
        assertTrue(r[0].contains("2 ENDs come before the first START of their thread: calls begun before the file's oldest"
                + " event, which the " + (ring || (mode & 0x400) != 0 ? "buffering ring" : "circular file") + " overwrote by design"), r[1]);
        assertFalse(r[0].contains("START lost"), r[1]);
        assertTrue(json ? r[0].contains("\"problems\":[]") : r[0].contains("problems: none"), r[1]);
    }

    @ParameterizedTest(name = "--json {0}")
    @CsvSource({"false", "true"})
    void leadingEndsAreStillALossInAFileThatKeepsEverything(boolean json) throws IOException {
        int[] status = new int[1];
        String[] r = run(trace(1, false, false), json, status);
        assertEquals(3, status[0], r[1]);
        assertTrue(r[0].contains("unbalanced jetw calls: 1 START and 3 END events (2 ENDs without START: START lost)"), r[1]);
        assertFalse(r[0].contains("before the first START"), r[1]);
    }

    @Test
    void aStartlessEndAfterItsThreadsFirstStartIsStillALossInARingsFile() throws IOException {
        int[] status = new int[1];
        String[] r = run(trace(1, true, true), false, status);
        assertEquals(3, status[0], r[1]);
        assertTrue(r[0].contains("unbalanced jetw calls: 1 START and 4 END events (2 of the ENDs begun before the file;"
                + " 1 ENDs without START: START lost)"), r[1]);
    }

    /** {@code dump --json} names a RING notice's kind "ring", as it names a WRITER's "writer". */
    @Test
    void dumpNamesTheRingNotice() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = EtlTool.run(new String[] {"dump", "--json", trace(1, true, false).toString()},
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
