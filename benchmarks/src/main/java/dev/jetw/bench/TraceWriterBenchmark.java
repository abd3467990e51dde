package dev.jetw.bench;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etl.TraceLevel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The portable backend's write path without instrumentation: one START + END pair (the payloads
 * the agent writes for a normal return, the way it writes them) per operation. Run with -t 1 and -t 2 for the writer
 * throughput; {@link #reportBytesPerEvent} prints the bytes on disk per event at tear-down.
 *
 * <p>{@code mode=sequential} (default) writes a file, so a writer faster than the disk runs out of
 * buffers and drops events; {@code mode=buffering} keeps an in-memory ring (the file holds only
 * the last ring at stop), so every event goes through the whole write path and nothing waits
 * for the disk: the per-event cost, as {@code -bm avgt -tu ns -p mode=buffering}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class TraceWriterBenchmark {

    @State(Scope.Benchmark)
    public static class Session {
        @Param({"sequential"})
        public String mode;
        EtwBackend etw;
        ClassicProvider provider;
        Path file;
        String name;

        @Setup(Level.Trial)
        public void start() throws Exception {
            etw = EtwBackends.create("portable");
            name = "jetw-bench-" + ProcessHandle.current().pid();
            file = Files.createTempFile("jetw-bench", ".etl");
            Files.delete(file);
            SessionConfig.Builder config = SessionConfig.builder().sessionName(name).logFile(file);
            if (mode.equals("buffering")) {
                config.modes(LogFileMode.BUFFERING);
            } else if (!mode.equals("sequential")) {
                throw new IllegalArgumentException("mode=" + mode + ": allowed sequential, buffering");
            }
            etw.startSession(config.build());
            provider = ClassicProvider.register(etw, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
            etw.enableProvider(name, JetwSchema.CONTROL_GUID, TraceLevel.VERBOSE, 0);
        }

        @TearDown(Level.Trial)
        public void reportBytesPerEvent() throws Exception {
            long written = provider.eventsWritten();
            provider.close();
            SessionStats stats = etw.stopSession(name);
            long bytes = Files.size(file);
            if (mode.equals("buffering")) {
                System.out.printf("%njetw portable (buffering): %d events written, %d dropped; the file holds the last"
                        + " ring only (%d bytes)%n", written, provider.eventsDropped(), bytes);
            } else {
                System.out.printf("%njetw portable: %d events written, %d dropped, %d lost in session, %d bytes on disk,"
                        + " %.1f bytes/event%n", written, provider.eventsDropped(),
                        stats == null ? -1 : stats.eventsLost(), bytes, written == 0 ? 0.0 : (double) bytes / written);
            }
            Files.deleteIfExists(file);
        }
    }

    @State(Scope.Thread)
    public static class Writer {
        EventScratch scratch;

        @Setup(Level.Trial)
        public void scratch(Session session) {
            scratch = session.provider.newScratch();
        }
    }

    private static final int METHOD_ID = 42;

    /**
     * {@code word}: the payloads as one word each ({@link ClassicProvider#writeSmall}), as the agent
     * writes START and a normal END; {@code buffer}: staged in the scratch's payload buffer
     * ({@link ClassicProvider#write}), as every event was written before writeSmall, and as
     * checkpoints and exception ENDs still are.
     */
    @State(Scope.Benchmark)
    public static class PayloadPath {
        @Param({"word"})
        public String payload;
        boolean word;

        @Setup(Level.Trial)
        public void check() {
            if (!payload.equals("word") && !payload.equals("buffer")) {
                throw new IllegalArgumentException("payload=" + payload + ": allowed word, buffer");
            }
            word = payload.equals("word");
        }
    }

    @Benchmark
    public boolean startEnd(Session session, Writer writer, PayloadPath path) {
        ClassicProvider p = session.provider;
        EventScratch s = writer.scratch;
        int id = p.newInstanceId(s, JetwSchema.METHOD_CALL_INDEX);
        if (path.word) {
            p.writeSmall(s, EventType.START, TraceLevel.INFORMATION, JetwSchema.METHOD_CALL_INDEX, id, -1, 0, METHOD_ID, 4);
            return p.writeSmall(s, EventType.END, TraceLevel.INFORMATION, JetwSchema.METHOD_CALL_INDEX, id, -1, 0,
                    METHOD_ID, 6); // method id, then "" as UTF-16Z
        }
        ByteBuffer payload = s.payload(8);
        payload.putInt(METHOD_ID);
        p.write(s, EventType.START, TraceLevel.INFORMATION, JetwSchema.METHOD_CALL_INDEX, id, -1, 0);
        payload = s.payload(8);
        payload.putInt(METHOD_ID);
        payload.putChar('\0');
        return p.write(s, EventType.END, TraceLevel.INFORMATION, JetwSchema.METHOD_CALL_INDEX, id, -1, 0);
    }
}
