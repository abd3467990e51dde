package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The records of the classes an attach with attachHot=skip left alone (JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH): summary
 * counts them in one line by why, methods lists them, both JSON forms carry them; they are not excluded methods, and a
 * record cut before its "(why)" still names its class.
 */
class ClassesLeftAloneTest {

    @TempDir
    Path tmp;

    private Path trace() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 11, JetwTraceFixture.PID, JetwTraceFixture.ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("com.acme.Item"), utf16z("price"), utf16z("()J"))));
        b.record(leftAlone(b, "com.acme.Spin (on a running stack)"));
        b.record(leftAlone(b, "com.acme.Compiled (compiled)"));
        b.record(leftAlone(b, "com.acme.Alpha (compiled)"));
        b.record(leftAlone(b, "com.acme.Small (a small method hot code calls)"));
        b.record(leftAlone(b, "com.acme.Cut"));
        b.record(leftAlone(b, "com.acme.Spin (on a running stack)")); // a second attach of the same trace names it again
        Path f = tmp.resolve("left-alone.etl");
        Files.write(f, b.build());
        return f;
    }

    private static byte[] leftAlone(EtlFixtureBuilder b, String classAndWhy) {
        ByteBuffer p = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putInt(0).putInt(0).putLong(0);
        return full(true, EventType.INFO, 0, 0, 11, JetwTraceFixture.PID, JetwTraceFixture.ts(b, 0.2), JetwSchema.METHOD_EXCLUSION_CLASS,
                concat(p.array(), utf16z(JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH + classAndWhy)));
    }

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text + err);
        return text;
    }

    private static final String COUNT = "left alone at attach (attachHot=skip): 5 classes, not traced in that attach (1 on a running stack,"
            + " 2 compiled, 1 a small method hot code calls, 1 why not recorded); jetw etl methods lists them; attachHot=defer traces them";

    @Test
    void summaryCountsThemInOneLineNotAsExcludedMethods() throws IOException {
        String text = run("summary", trace().toString());
        assertTrue(text.lines().anyMatch(("  " + COUNT)::equals), text);
        assertEquals(List.of(), text.lines().filter(l -> l.contains("com.acme.")).collect(Collectors.toList()), "no class line in summary");
    }

    @Test
    void methodsListsThemByNameWithWhy() throws IOException {
        String text = run("methods", trace().toString());
        List<String> lines = text.lines().collect(Collectors.toList());
        int at = lines.indexOf(COUNT);
        assertTrue(at >= 0, text);
        assertEquals(List.of("  com.acme.Alpha  (compiled)", "  com.acme.Compiled  (compiled)", "  com.acme.Cut  (why not recorded)",
                "  com.acme.Small  (a small method hot code calls)", "  com.acme.Spin  (on a running stack)"), lines.subList(at + 1, lines.size()));
    }

    @Test
    void bothJsonFormsCarryThemAndSummaryKeepsThemOutOfExcludedMethods() throws IOException {
        String expected = "\"classesLeftAloneAtAttach\":[{\"class\":\"com.acme.Alpha\",\"why\":\"compiled\"},{\"class\":\"com.acme.Compiled\","
                + "\"why\":\"compiled\"},{\"class\":\"com.acme.Cut\",\"why\":\"\"},{\"class\":\"com.acme.Small\",\"why\":\"a small method hot code"
                + " calls\"},{\"class\":\"com.acme.Spin\",\"why\":\"on a running stack\"}]";
        String methods = run("methods", "--json", trace().toString());
        assertTrue(methods.contains(expected), methods);
        String summary = run("summary", "--json", trace().toString());
        assertTrue(summary.contains(expected), summary);
        assertTrue(summary.contains("\"excludedMethods\":[]"), summary);
    }

    @Test
    void dumpShowsEachRecord() throws IOException {
        String text = run("dump", trace().toString());
        assertEquals(6, text.lines().filter(l -> l.contains(JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH)).count(), text);
    }
}
