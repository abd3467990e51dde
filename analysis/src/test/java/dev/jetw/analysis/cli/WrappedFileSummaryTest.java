package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code summary} of a file whose oldest buffers were overwritten (a wrapped circular file, a buffering ring's dump:
 * the SequenceNumbers go on past the buffers that are gone): the ENDs of calls begun in those buffers are no loss, so
 * the summary says why they have no START in a note and exits 0, where it used to report "START lost" and exit 3. A
 * file numbered from 1 with the same unbalance is still a loss.
 */
class WrappedFileSummaryTest {

    @TempDir
    Path tmp;

    /** Two ENDs whose STARTs are not in the file, one whole call; the one data buffer numbered {@code sequence}. */
    private Path trace(long sequence) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 1.0, 7, 0, JetwTraceFixture.end(1, "")));
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 2.0, 8, 0, JetwTraceFixture.end(1, "")));
        b.record(JetwTraceFixture.call(b, EventType.START, 11, 3.0, 9, 0, u32(1)));
        b.record(JetwTraceFixture.call(b, EventType.END, 11, 4.0, 9, 0, JetwTraceFixture.end(1, "")));
        b.sequence(0, sequence);
        Path f = tmp.resolve("seq" + sequence + ".etl");
        Files.write(f, b.build());
        return f;
    }

    @ParameterizedTest(name = "first data buffer numbered {0}, --json {1}")
    @CsvSource({"5, false, 0", "5, true, 0", "1, false, 3", "1, true, 3"})
    void endsWithoutStartAreANoteWhenTheOldestBuffersWereOverwritten(long sequence, boolean json, int exit) throws IOException {
        Path f = trace(sequence);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = json ? new String[] {"summary", "--json", f.toString()} : new String[] {"summary", f.toString()};
        int status = EtlTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        String seen = "exit " + status + "\n" + text + "\nstderr: " + err.toString(StandardCharsets.UTF_8);
        assertEquals(exit, status, seen);
        String note = "the file's oldest buffer is number 5: the 4 buffers before it are not in this file";
        if (sequence > 1) {
            assertTrue(text.contains(note), seen);
            assertTrue(!text.contains("START lost"), seen);
            assertTrue(json ? text.contains("\"problems\":[]") : text.contains("problems: none"), seen);
        } else {
            assertTrue(!text.contains("oldest buffer is number"), seen);
            assertTrue(text.contains("unbalanced jetw calls: 1 START and 3 END events (2 ENDs without START: START lost)"), seen);
        }
    }
}
