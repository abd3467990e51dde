package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jetw etl hot-methods}: the adaptive decisions of traces, as the agent's hotMethods= option reads them. */
class HotMethodsCommandTest {

    private static final int PID = 4242;

    @TempDir
    Path tmp;

    private static long ts(EtlFixtureBuilder b, double ms) {
        return b.anchor + Math.round(ms * 10_000);
    }

    private static byte[] method(int id, String cls, String name, String desc) {
        return concat(u32(id), utf16z(cls), utf16z(name), utf16z(desc));
    }

    private static byte[] exclusion(EtlFixtureBuilder b, double ms, int methodId, String reason) {
        ByteBuffer p = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(methodId).putInt(256).putInt(0).putLong(2000);
        return full(true, EventType.INFO, 0, 0, 11, PID, ts(b, ms), JetwSchema.METHOD_EXCLUSION_CLASS, concat(p.array(), utf16z(reason)));
    }

    private Path trace(String name, boolean namesLast, String... reasonsOfMethods1To4) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        if (!namesLast) {
            names(b);
        }
        for (int i = 0; i < reasonsOfMethods1To4.length; i++) {
            if (reasonsOfMethods1To4[i] != null) {
                b.record(exclusion(b, 1.0 + i, i + 1, reasonsOfMethods1To4[i]));
            }
        }
        b.record(exclusion(b, 9.0, 9, JetwSchema.EXCLUSION_HOT_SHORT)); // id 9 is never named
        b.record(exclusion(b, 9.5, 0, JetwSchema.EXCLUSION_TRIVIAL + "12 methods of rule a.** not instrumented"));
        if (namesLast) {
            names(b); // a ring's DC_ENDs: names after the decisions
        }
        Path f = tmp.resolve(name);
        Files.write(f, b.build());
        return f;
    }

    private static void names(EtlFixtureBuilder b) {
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS, method(1, "a.Page", "isLeaf", "()Z")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.2), JetwSchema.METHOD_CLASS, method(2, "a.Map", "get", "(Ljava/lang/Object;)Ljava/lang/Object;")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.3), JetwSchema.METHOD_CLASS, method(3, "a.Value", "convertTo", "(I)La/Value;")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.4), JetwSchema.METHOD_CLASS, method(4, "a.Db", "query", "()I")));
    }

    @Test
    void listsEachMethodsLastDecisionAnExclusionWinningOverAThreshold() throws IOException {
        Path f = trace("one.etl", false, JetwSchema.EXCLUSION_HOT_SHORT, JetwSchema.EXCLUSION_HOT_THRESHOLD + "1ms",
                JetwSchema.EXCLUSION_HOT_FAST + JetwSchema.EXCLUSION_KNOWN_SUFFIX, JetwSchema.EXCLUSION_HOT_THRESHOLD + "1ms");
        // Method 4's threshold is followed by hot-fast: one line, the exclusion.
        Path g = trace("two.etl", true, null, null, null, JetwSchema.EXCLUSION_HOT_FAST);
        EtlToolTest.Run r = EtlToolTest.run("hot-methods", f.toString(), g.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(String.join("\n",
                "# jetw hot methods of 2 traces, for the agent option hotMethods=THIS_FILE (docs/agent-options.md)",
                "# 1 hot-short, 2 hot-fast, 1 given a threshold (hot-threshold=T); 2 decisions left out: their methods are not named in the trace",
                "hot-fast a.Db.query()I",
                "hot-threshold=1ms a.Map.get(Ljava/lang/Object;)Ljava/lang/Object;",
                "hot-short a.Page.isLeaf()Z",
                "hot-fast a.Value.convertTo(I)La/Value;", ""), r.out());
    }

    @Test
    void dumpJsonShowsEachExclusionAsItsOwnObject() throws IOException {
        // The exclusion case once fell through into the runtime-event case: a NullPointerException on every default trace.
        Path f = trace("dump.etl", false, JetwSchema.EXCLUSION_HOT_SHORT);
        EtlToolTest.Run r = EtlToolTest.run("dump", "--json", f.toString());
        assertEquals(0, r.status(), r.err());
        String line = r.out().lines().filter(l -> l.contains("\"event\":\"EXCLUSION\"") && l.contains("\"methodId\":1,")).findFirst().orElseThrow();
        assertTrue(line.contains("\"method\":\"a.Page.isLeaf()Z\"") || line.contains("a.Page.isLeaf"), line);
        assertTrue(line.contains("\"reason\":\"hot-short\"") && line.contains("\"callsObserved\":256"), line);
        assertTrue(!line.contains("\"class\":"), "no runtime-event fields on an exclusion: " + line);
    }

    @Test
    void aTraceWithoutDecisionsGivesAnEmptyListAndAMissingFileFails() throws IOException {
        Path f = trace("none.etl", false);
        EtlToolTest.Run r = EtlToolTest.run("hot-methods", f.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("# jetw hot methods of " + f + ", for the agent option hotMethods=THIS_FILE (docs/agent-options.md)\n"
                + "# 0 hot-short, 0 hot-fast, 0 given a threshold (hot-threshold=T); 1 decisions left out: their methods are not named in the trace\n",
                r.out());
        EtlToolTest.Run missing = EtlToolTest.run("hot-methods", tmp.resolve("missing.etl").toString());
        assertEquals(EtlTool.BAD_FILE, missing.status());
    }

    @Test
    void dashOWritesOneUtf8ListOfAllFilesAndPrintsItsPath() throws IOException {
        Path f = trace("a.etl", false, JetwSchema.EXCLUSION_HOT_SHORT);
        Path g = trace("b.etl", false, null, JetwSchema.EXCLUSION_HOT_FAST);
        Path out = tmp.resolve("app.hot");
        EtlToolTest.Run r = EtlToolTest.run("hot-methods", "-o", out.toString(), f.toString(), g.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(out + "\n", r.out());
        assertEquals(java.util.Arrays.asList(
                "# jetw hot methods of 2 traces, for the agent option hotMethods=THIS_FILE (docs/agent-options.md)",
                "# 1 hot-short, 1 hot-fast, 0 given a threshold (hot-threshold=T); 2 decisions left out: their methods are not named in the trace",
                "hot-fast a.Map.get(Ljava/lang/Object;)Ljava/lang/Object;",
                "hot-short a.Page.isLeaf()Z"), Files.readAllLines(out, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A truncated FILE lists its intact decisions on stdout (exit 3), but -o keeps the earlier list as it was. */
    @Test
    void aTruncatedFileIsListedButNeverReplacesAList() throws IOException {
        Path whole = trace("whole.etl", false, JetwSchema.EXCLUSION_HOT_SHORT, null, null, null);
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = tmp.resolve("cut.etl");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        EtlToolTest.Run printed = EtlToolTest.run("hot-methods", cut.toString());
        assertEquals(EtlTool.TRUNCATED, printed.status(), printed.err());
        Path list = tmp.resolve("app.hot");
        Files.write(list, "hot-fast a.Map.get(Ljava/lang/Object;)Ljava/lang/Object;\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        EtlToolTest.Run r = EtlToolTest.run("hot-methods", "-o", list.toString(), cut.toString());
        assertEquals(EtlTool.TRUNCATED, r.status(), r.err());
        assertEquals("", r.out(), "no path printed");
        assertTrue(r.err().contains("jetw etl: hot-methods: no list written to " + list), r.err());
        assertEquals("hot-fast a.Map.get(Ljava/lang/Object;)Ljava/lang/Object;\n",
                new String(Files.readAllBytes(list), java.nio.charset.StandardCharsets.UTF_8), "the earlier list is kept");
    }

    /**
     * A FILE that is no .etl (or missing) must leave no list behind: the header lines alone, redirected to a file, read as
     * an empty list by hotMethods=; with -o an earlier good list stays as it was. One case per way of giving the FILEs.
     */
    @Test
    void anUnreadableFileLeavesNoListOnStdoutNorInTheOutputFile() throws IOException {
        Path good = trace("good.etl", false, JetwSchema.EXCLUSION_HOT_SHORT, null, null, null);
        Path notEtl = tmp.resolve("app.log");
        Files.write(notEtl, "not a trace\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Path missing = tmp.resolve("missing.etl");
        for (Path[] files : new Path[][] {{notEtl}, {missing}, {good, notEtl}, {notEtl, good}}) {
            List<String> args = new java.util.ArrayList<>(java.util.Arrays.asList("hot-methods"));
            for (Path f : files) {
                args.add(f.toString());
            }
            EtlToolTest.Run r = EtlToolTest.run(args.toArray(new String[0]));
            assertEquals(EtlTool.BAD_FILE, r.status(), args.toString());
            assertEquals("", r.out(), args + ": nothing on stdout");
            assertTrue(r.err().contains("jetw etl: hot-methods: no list printed: 1 of " + files.length + " FILEs could not be read"), r.err());

            Path list = tmp.resolve("app.hot");
            Files.write(list, "hot-short a.Page.isLeaf()Z\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            args.add(1, "-o");
            args.add(2, list.toString());
            r = EtlToolTest.run(args.toArray(new String[0]));
            assertEquals(EtlTool.BAD_FILE, r.status(), args.toString());
            assertEquals("", r.out(), args + ": no path printed");
            assertEquals("hot-short a.Page.isLeaf()Z\n", new String(Files.readAllBytes(list), java.nio.charset.StandardCharsets.UTF_8),
                    args + ": the earlier list is kept");
        }
    }
}
