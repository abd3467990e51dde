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

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records as the agent writes them under a duration threshold (a call's START written at its exit
 * with its entry time, so after its children's records), and a MethodExclusion event: the tree
 * pairs by instance id and orders by time, the summary and dump name the excluded method.
 */
class ThresholdTreeTest {

    private static final int PID = 4242;

    @TempDir
    Path tmp;

    private static byte[] call(EtlFixtureBuilder b, int type, double ms, int inst, int parent, byte[] payload) {
        return instance(true, type, 4, 0, 11, PID, ts(b, ms), JetwSchema.METHOD_CALL_CLASS, inst, parent,
                parent == 0 ? null : JetwSchema.METHOD_CALL_CLASS, payload);
    }

    private static long ts(EtlFixtureBuilder b, double ms) {
        return b.anchor + Math.round(ms * 10_000);
    }

    private static byte[] method(int id, String cls, String name, String desc) {
        return concat(u32(id), utf16z(cls), utf16z(name), utf16z(desc));
    }

    private Path file() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS, method(1, "a.Shop", "handle", "()V")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.2), JetwSchema.METHOD_CLASS, method(2, "a.Db", "query", "()I")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.3), JetwSchema.METHOD_CLASS, method(3, "a.Item", "price", "()J")));
        // handle (inst 1, 1..10 ms) around query (inst 2, 2..5 ms): query's records come first.
        b.record(call(b, EventType.START, 2.0, 2, 1, u32(2)));
        b.record(call(b, EventType.END, 5.0, 2, 1, concat(u32(2), utf16z(""))));
        b.record(call(b, EventType.START, 1.0, 1, 0, u32(1)));
        b.record(call(b, EventType.END, 10.0, 1, 0, concat(u32(1), utf16z(""))));
        // Same entry time for parent (inst 3) and child (inst 4), the parent's START written later.
        b.record(call(b, EventType.START, 20.0, 4, 3, u32(2)));
        b.record(call(b, EventType.END, 21.0, 4, 3, concat(u32(2), utf16z(""))));
        b.record(call(b, EventType.START, 20.0, 3, 0, u32(1)));
        b.record(call(b, EventType.END, 30.0, 3, 0, concat(u32(1), utf16z(""))));
        ByteBuffer ex = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(3).putInt(10_000).putInt(2).putLong(2000);
        b.record(full(true, EventType.INFO, 0, 0, 11, PID, ts(b, 31.0), JetwSchema.METHOD_EXCLUSION_CLASS,
                concat(ex.array(), utf16z(JetwSchema.EXCLUSION_HOT_SHORT))));
        Path f = tmp.resolve("threshold.etl");
        Files.write(f, b.build());
        return f;
    }

    @Test
    void treePairsByInstanceIdAndOrdersByTimeNotByRecordOrder() throws IOException {
        Path f = file();
        EtlToolTest.Run r = EtlToolTest.run("tree", f.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(String.join("\n",
                "== " + f + " (session jetw)",
                "thread 11 (pid 4242)",
                "  9.000 ms  a.Shop.handle()V  @+1.000 ms",
                "    3.000 ms  a.Db.query()I  @+2.000 ms",
                "  10.000 ms  a.Shop.handle()V  @+20.000 ms",
                "    1.000 ms  a.Db.query()I  @+20.000 ms", ""), r.out());
    }

    @Test
    void summaryAndDumpNameTheExcludedMethodAndWhy() throws IOException {
        Path f = file();
        EtlToolTest.Run text = EtlToolTest.run("summary", f.toString());
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().contains("excluded methods (hot-short, hot-fast: no events after this point; hot-threshold=T: only its calls of at least T after it):\n"
                + "  a.Item.price()J  hot-short: 10000 calls observed, 2 lasting 2000 ns or more"), text.out());
        EtlToolTest.Run json = EtlToolTest.run("summary", "--json", f.toString());
        assertTrue(json.out().contains("\"excludedMethods\":[{\"methodId\":3,\"method\":\"a.Item.price()J\",\"reason\":\"hot-short\","
                + "\"callsObserved\":10000,\"longCalls\":2,\"shortNanos\":2000}]"), json.out());
        EtlToolTest.Run dump = EtlToolTest.run("dump", f.toString());
        assertTrue(dump.out().contains("excluded a.Item.price()J (hot-short: 10000 calls observed, 2 lasting 2000 ns or more)"), dump.out());
    }
}
