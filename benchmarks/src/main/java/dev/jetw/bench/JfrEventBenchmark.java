package dev.jetw.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import dev.jetw.bench.work.Work;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JFR doing the same work as {@link TraceWriterBenchmark}: one duration event (begin + commit)
 * with the same payload fields, recorded to a file. JFR writes one event per call where jetw
 * writes two (START and END), which is the fair comparison: both record one traced call.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class JfrEventBenchmark {

    @Name("dev.jetw.bench.MethodCall")
    @Label("Method call")
    static final class MethodCallEvent extends Event {
        @Label("Method id")
        int methodId;
        @Label("Exception class")
        String exceptionClass;
    }

    @State(Scope.Benchmark)
    public static class JfrRecording {
        Recording recording;
        Path file;

        @Setup(Level.Trial)
        public void start() throws Exception {
            file = Files.createTempFile("jetw-bench", ".jfr");
            recording = new Recording();
            // No stack trace: jetw records none either, and JFR's stack walk would dominate the figure.
            recording.enable(MethodCallEvent.class).withThreshold(java.time.Duration.ZERO).withoutStackTrace();
            recording.setToDisk(true);
            recording.setDestination(file);
            recording.start();
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            recording.stop();
            recording.close();
            long events;
            try (jdk.jfr.consumer.RecordingFile rf = new jdk.jfr.consumer.RecordingFile(file)) {
                events = 0;
                while (rf.hasMoreEvents()) {
                    if (rf.readEvent().getEventType().getName().equals("dev.jetw.bench.MethodCall")) {
                        events++;
                    }
                }
            }
            long bytes = Files.size(file);
            System.out.printf("%nJFR: %d events, %d bytes on disk, %.1f bytes/event (file includes JFR metadata"
                    + " and other events)%n", events, bytes, events == 0 ? 0.0 : (double) bytes / events);
            Files.deleteIfExists(file);
        }
    }

    private static final int METHOD_ID = 42;

    @Benchmark
    public void beginCommit(JfrRecording recording) {
        MethodCallEvent e = new MethodCallEvent();
        e.begin();
        e.methodId = METHOD_ID;
        e.exceptionClass = "";
        e.commit();
    }

    /**
     * JFR around the same work as {@link InstrumentedCallBenchmark#call()}: the JFR equivalent of
     * the agent's START + END around {@code Work.compute}.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public int aroundCompute(JfrRecording recording, Input input) {
        MethodCallEvent e = new MethodCallEvent();
        e.begin();
        int result = Work.compute(input.next++);
        e.methodId = METHOD_ID;
        e.exceptionClass = "";
        e.commit();
        return result;
    }

    /** Per-thread varying input, as in InstrumentedCallBenchmark. */
    @State(Scope.Thread)
    public static class Input {
        int next;
    }
}
