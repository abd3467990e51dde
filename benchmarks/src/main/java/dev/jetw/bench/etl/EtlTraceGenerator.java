package dev.jetw.bench.etl;

import dev.jetw.etl.EncodedGuid;
import dev.jetw.etl.EtlBufferWriter;
import dev.jetw.etl.EtlFileWriter;
import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlLogfileHeader;
import dev.jetw.etl.EtlRecordWriter;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * Writes a jetw-like .etl of a given number of events for the `jetw etl` benchmark (BENCHMARKS.md),
 * with EtlFileWriter directly (no session: no loss, deterministic, synthetic times at 10 MHz):
 * 8 threads, each running requests of 21 calls (a request, 4 services of 4 queries each), interleaved
 * request by request as a busy server would; one request in 50 ends in an exception, one in 10 has a
 * checkpoint; thread 8 writes as under a duration threshold (each call's START at its exit, after its
 * children). 24 methods and the 8 threads are named by rundown records first.
 *
 * <p>{@code java -cp ... dev.jetw.bench.etl.EtlTraceGenerator OUT.etl EVENTS}
 */
public final class EtlTraceGenerator {

    private static final int BUFFER = 64 * 1024;
    private static final int PID = 4242;
    private static final int THREADS = 8;
    private static final EncodedGuid CALL = EncodedGuid.of(JetwSchema.METHOD_CALL_CLASS);

    private final FileChannel channel;
    private final EtlFileWriter file;
    private final long[] words = new long[BUFFER / 8];
    private final ByteBuffer bytes = ByteBuffer.allocate(BUFFER).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer payload = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
    private int pos = EtlFormat.BUFFER_HEADER_SIZE;
    private long slot = 1;
    private long lastTs;
    long events;
    private int nextInstance = 1;

    private EtlTraceGenerator(FileChannel channel) {
        this.channel = channel;
        this.file = new EtlFileWriter(channel, BUFFER);
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: EtlTraceGenerator OUT.etl EVENTS");
            System.exit(2);
        }
        Path out = Paths.get(args[0]);
        long target = Long.parseLong(args[1]);
        EtlLogfileHeader h = new EtlLogfileHeader();
        h.bufferSize = BUFFER;
        h.loggerName = "jetw-bench";
        h.logFileName = out.toString();
        h.startTime = 133_000_000_000_000_000L;
        h.systemTime = 1_000_000_000L;
        h.perfFreq = 10_000_000L;
        h.clockType = 1;
        h.processId = PID;
        try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            EtlTraceGenerator g = new EtlTraceGenerator(ch);
            g.file.writeHeaderBuffer(h);
            long t0 = h.systemTime + 10_000;
            for (int m = 1; m <= 24; m++) {
                g.rundownMethod(m, t0);
            }
            for (int t = 1; t <= THREADS; t++) {
                g.rundownThread(t, t0);
            }
            long[] clock = new long[THREADS + 1];
            java.util.Arrays.fill(clock, t0 + 100);
            long request = 0;
            while (g.events < target) {
                int tid = (int) (request % THREADS) + 1;
                clock[tid] = g.request(tid, clock[tid], request, tid == THREADS);
                request++;
            }
            g.flush();
            h.buffersWritten = (int) g.slot;
            g.file.updateHeader((int) g.slot, h.startTime + (g.lastTs - h.systemTime), 0, 0);
            System.out.printf("%s: %d events, %d buffers, %d bytes%n", out, g.events, g.slot, ch.size());
        }
    }

    /** One request on thread {@code tid} from time {@code t}; returns when it ended. */
    private long request(int tid, long t, long n, boolean thresholded) throws IOException {
        int root = nextInstance++;
        long start = t;
        long now = t + 3;
        int[] insts = new int[21];
        long[] starts = new long[21];
        long[] ends = new long[21];
        int[] parents = new int[21];
        int[] methods = new int[21];
        insts[0] = root;
        starts[0] = start;
        methods[0] = 1;
        if (!thresholded) {
            startRecord(tid, start, root, 0, 1);
        }
        int k = 1;
        for (int s = 0; s < 4; s++) {
            int svc = nextInstance++;
            int si = k++;
            insts[si] = svc;
            parents[si] = root;
            methods[si] = 2 + s;
            starts[si] = now;
            if (!thresholded) {
                startRecord(tid, now, svc, root, methods[si]);
            }
            now += 2;
            for (int q = 0; q < 4; q++) {
                int qi = k++;
                insts[qi] = nextInstance++;
                parents[qi] = svc;
                methods[qi] = 6 + (int) ((n + q) % 19);
                starts[qi] = now;
                if (!thresholded) {
                    startRecord(tid, now, insts[qi], svc, methods[qi]);
                }
                now += 5 + (n * 7 + q * 13) % 40; // 0.5 .. 4.4 us
                ends[qi] = now;
                if (thresholded) {
                    startRecord(tid, starts[qi], insts[qi], svc, methods[qi]);
                }
                endRecord(tid, now, insts[qi], svc, methods[qi], null);
                now += 1;
            }
            if (s == 1 && n % 10 == 0) {
                checkpoint(tid, now, svc, methods[si], "halfway");
            }
            now += 2;
            ends[si] = now;
            if (thresholded) {
                startRecord(tid, starts[si], svc, root, methods[si]);
            }
            endRecord(tid, now, svc, root, methods[si], null);
        }
        now += 3;
        if (thresholded) {
            startRecord(tid, start, root, 0, 1);
        }
        endRecord(tid, now, root, 0, 1, n % 50 == 0 ? "java.lang.IllegalStateException" : null);
        return now + 20;
    }

    private void startRecord(int tid, long ts, int inst, int parent, int method) throws IOException {
        instance(EventType.START, tid, ts, inst, parent, method & 0xFFFFFFFFL, 4);
    }

    private void endRecord(int tid, long ts, int inst, int parent, int method, String exception) throws IOException {
        if (exception == null) {
            instance(EventType.END, tid, ts, inst, parent, method & 0xFFFFFFFFL, 6);
            return;
        }
        payload.clear();
        payload.putInt(method);
        utf16z(exception);
        instancePayload(EventType.END, tid, ts, inst, parent);
    }

    private void checkpoint(int tid, long ts, int inst, int method, String label) throws IOException {
        payload.clear();
        payload.putInt(method);
        utf16z(label);
        instancePayload(EventType.CHECKPOINT, tid, ts, inst, 0);
    }

    private void instance(int type, int tid, long ts, int inst, int parent, long word, int length) throws IOException {
        room(EtlRecordWriter.instanceRecordSpace(length));
        int p = EtlRecordWriter.putInstanceHeader(words, pos, type, 4, 0, tid, PID, ts, CALL, inst, parent,
                parent == 0 ? EncodedGuid.ZERO : CALL, length);
        pos = EtlRecordWriter.putPayloadWord(words, p, word, length);
        done(ts);
    }

    private void instancePayload(int type, int tid, long ts, int inst, int parent) throws IOException {
        int length = payload.position();
        room(EtlRecordWriter.instanceRecordSpace(length));
        int p = EtlRecordWriter.putInstanceHeader(words, pos, type, 4, 0, tid, PID, ts, CALL, inst, parent,
                parent == 0 ? EncodedGuid.ZERO : CALL, length);
        pos = EtlRecordWriter.putPayload(words, p, payload, length);
        done(ts);
    }

    private void rundownMethod(int id, long ts) throws IOException {
        payload.clear();
        payload.putInt(id);
        utf16z("com.example.bench.Service" + (id % 5));
        utf16z("method" + id);
        utf16z("()V");
        full(JetwSchema.METHOD_CLASS, 1, ts);
    }

    private void rundownThread(int tid, long ts) throws IOException {
        payload.clear();
        payload.putLong(tid);
        utf16z("worker-" + tid);
        full(JetwSchema.THREAD_CLASS, tid, ts);
    }

    private void full(java.util.UUID cls, int tid, long ts) throws IOException {
        int length = payload.position();
        room(EtlRecordWriter.fullRecordSpace(length));
        int p = EtlRecordWriter.putFullHeader(words, pos, EventType.DC_START, 0, 0, tid, PID, ts, EncodedGuid.of(cls), length);
        pos = EtlRecordWriter.putPayload(words, p, payload, length);
        done(ts);
    }

    private void utf16z(String s) {
        payload.put(s.getBytes(StandardCharsets.UTF_16LE));
        payload.putChar('\0');
    }

    private void done(long ts) {
        events++;
        lastTs = Math.max(lastTs, ts);
    }

    private void room(int space) throws IOException {
        if (pos + space > BUFFER) {
            flush();
        }
    }

    private void flush() throws IOException {
        if (pos == EtlFormat.BUFFER_HEADER_SIZE) {
            return;
        }
        bytes.clear();
        EtlRecordWriter.copyWords(words, EtlFormat.BUFFER_HEADER_SIZE, pos, bytes);
        EtlBufferWriter.sealData(bytes, pos, lastTs, slot, 1);
        file.writeBuffer(bytes, slot);
        slot++;
        pos = EtlFormat.BUFFER_HEADER_SIZE;
    }
}
