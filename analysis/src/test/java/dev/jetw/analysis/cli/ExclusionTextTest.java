package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How summary and dump word a MethodExclusion: with the counts of the calls observed for an adaptive decision, and
 * "0 calls observed" alone for one taken without observing any (the attach ramp's running-hot methods, hotMethods=),
 * which read "0 calls observed, 0 lasting 0 ns or more".
 */
class ExclusionTextTest {

    @TempDir
    Path tmp;

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> commandsAndLines() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("summary", "  com.acme.Spin.run()V  running hot at attach: 0 calls observed"),
                org.junit.jupiter.params.provider.Arguments.of("summary",
                        "  com.acme.Item.price()J  hot-short: 256 calls observed, 2 lasting 2000 ns or more"),
                org.junit.jupiter.params.provider.Arguments.of("dump", "excluded com.acme.Spin.run()V (running hot at attach: 0 calls observed)"),
                org.junit.jupiter.params.provider.Arguments.of("dump",
                        "excluded com.acme.Item.price()J (hot-short: 256 calls observed, 2 lasting 2000 ns or more)"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @org.junit.jupiter.params.provider.MethodSource("commandsAndLines")
    void anExclusionWithoutObservedCallsSaysOnlyThat(String command, String expected) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(method(b, 1, "com.acme.Spin", "run", "()V"));
        b.record(method(b, 2, "com.acme.Item", "price", "()J"));
        b.record(exclusion(b, 1, 0, 0, 0, JetwSchema.EXCLUSION_RUNNING_AT_ATTACH));
        b.record(exclusion(b, 2, 256, 2, 2000, JetwSchema.EXCLUSION_HOT_SHORT));
        Path f = tmp.resolve("excluded.etl");
        Files.write(f, b.build());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(new String[] {command, f.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text + err);
        // The whole line (summary) or the whole exclusion text up to its end (dump): nothing after "observed".
        assertTrue(command.equals("summary") ? text.lines().anyMatch(expected::equals) : text.lines().anyMatch(l -> l.endsWith(expected)), text);
    }

    private static byte[] method(EtlFixtureBuilder b, int id, String cls, String name, String desc) {
        return full(true, EventType.DC_START, 0, 0, 11, JetwTraceFixture.PID, JetwTraceFixture.ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(id), utf16z(cls), utf16z(name), utf16z(desc)));
    }

    private static byte[] exclusion(EtlFixtureBuilder b, int methodId, int calls, int slow, long slowNanos, String reason) {
        ByteBuffer p = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(methodId).putInt(calls).putInt(slow).putLong(slowNanos);
        return full(true, EventType.INFO, 0, 0, 11, JetwTraceFixture.PID, JetwTraceFixture.ts(b, 0.2), JetwSchema.METHOD_EXCLUSION_CLASS,
                concat(p.array(), utf16z(reason)));
    }
}
