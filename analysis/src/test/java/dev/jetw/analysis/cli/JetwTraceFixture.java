package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.UUID;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;

/**
 * A hand-built .etl file with jetw's events per JetwSchema (independent of the project's writer).
 * Times are in ms after StartTime (QPC at 10 MHz, so 1 ms = 10,000 ticks). Thread ids equal Java
 * thread ids, as in files of the portable backend.
 *
 * <pre>
 * thread 11 "main":
 *   handle   inst 1   1.000 .. 10.000   (9.000 ms)
 *     query  inst 2   2.000 .. 5.000    (3.000 ms)
 *     checkpoint "validated" (inst 1)  6.000
 *     render inst 3   7.000 .. 7.500    (0.500 ms) threw java.lang.IllegalStateException
 *   handle   inst 4   20.000 .. (unfinished)
 *     query  inst 5   21.000 .. (unfinished)
 * thread 12 "worker-1":
 *   query    inst 100 3.000 .. 15.250   (12.250 ms)   the slowest top-level call
 *   checkpoint "idle" (inst 101, method 0) 16.000
 * </pre>
 * Buffers: #1 (seq 3) thread 12; #2 (seq 2) the second half of thread 11; #3 (seq 1) rundown and the
 * first half of thread 11; so reader order differs from time order. One non-jetw event (class
 * {@link #OTHER}) with payload 01020304.
 */
final class JetwTraceFixture {

    static final UUID OTHER = UUID.fromString("11111111-2222-3333-4444-555555555555");
    static final int PID = 4242;

    private JetwTraceFixture() {
    }

    static long ts(EtlFixtureBuilder b, double ms) {
        return b.anchor + Math.round(ms * 10_000);
    }

    private static byte[] method(int id, String cls, String name, String desc) {
        return concat(u32(id), utf16z(cls), utf16z(name), utf16z(desc));
    }

    private static byte[] thread(long javaId, String name) {
        byte[] id = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, javaId).array();
        return concat(id, utf16z(name));
    }

    static byte[] call(EtlFixtureBuilder b, int type, int tid, double ms, int inst, int parent, byte[] payload) {
        return instance(true, type, 4, 0, tid, PID, ts(b, ms), JetwSchema.METHOD_CALL_CLASS, inst, parent,
                parent == 0 ? null : JetwSchema.METHOD_CALL_CLASS, payload);
    }

    static byte[] end(int methodId, String exception) {
        return concat(u32(methodId), utf16z(exception));
    }

    static byte[] build() {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        UUID mc = JetwSchema.METHOD_CLASS;
        b.newBuffer(); // #1, seq 3: thread 12
        b.record(full(true, EventType.DC_START, 0, 0, 12, PID, ts(b, 2.5), JetwSchema.THREAD_CLASS, thread(12, "worker-1")));
        b.record(call(b, EventType.START, 12, 3.0, 100, 0, u32(2)));
        b.record(call(b, EventType.END, 12, 15.25, 100, 0, end(2, "")));
        b.record(call(b, EventType.CHECKPOINT, 12, 16.0, 101, 0, concat(u32(0), utf16z("idle"))));
        b.newBuffer(); // #2, seq 2: second half of thread 11
        b.record(call(b, EventType.START, 11, 7.0, 3, 1, u32(3)));
        b.record(call(b, EventType.END, 11, 7.5, 3, 1, end(3, "java.lang.IllegalStateException")));
        b.record(call(b, EventType.END, 11, 10.0, 1, 0, end(1, "")));
        b.record(call(b, EventType.START, 11, 20.0, 4, 0, u32(1)));
        b.record(call(b, EventType.START, 11, 21.0, 5, 4, u32(2)));
        b.record(full(true, EventType.INFO, 3, 1, 11, PID, ts(b, 22.0), OTHER, new byte[]{1, 2, 3, 4}));
        b.newBuffer(); // #3, seq 1: rundown, first half of thread 11
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.1), mc, method(1, "com.example.Shop", "handle", "(Ljava/lang/String;)V")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.2), mc, method(2, "com.example.Db", "query", "()I")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.3), mc, method(3, "com.example.Shop", "render", "()V")));
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.5), JetwSchema.THREAD_CLASS, thread(11, "main")));
        b.record(call(b, EventType.START, 11, 1.0, 1, 0, u32(1)));
        b.record(call(b, EventType.START, 11, 2.0, 2, 1, u32(2)));
        b.record(call(b, EventType.END, 11, 5.0, 2, 1, end(2, "")));
        b.record(call(b, EventType.CHECKPOINT, 11, 6.0, 1, 0, concat(u32(1), utf16z("validated"))));
        b.sequence(0, 3).sequence(1, 2).sequence(2, 1);
        return b.build();
    }
}
