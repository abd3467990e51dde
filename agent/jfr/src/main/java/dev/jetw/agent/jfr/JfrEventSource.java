package dev.jetw.agent.jfr;

import dev.jetw.agent.core.runtime.ExitStopReport;
import dev.jetw.agent.core.runtime.RuntimeEventSource;
import dev.jetw.agent.core.runtime.RuntimeEventWriter;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingStream;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The runtime events from JFR's in-process streaming: one {@link RecordingStream} with exactly the
 * JFR events the selected families need (thresholds from {@code jvmThreshold=}, stack traces only
 * for exceptions), consumed on JFR's stream thread by {@link JfrEventMapper}. Loaded by name by the
 * core on Java 17+ (docs/agent-dist.md).
 *
 * <p>Stop ({@code detach}): on JDK 20+ {@code RecordingStream.stop()} returns once every recorded event was
 * consumed. On 17 to 19 there is no such call: the stop waits for the stream to report two flushes after
 * the request (JFR flushes about once a second while the recording runs; at most {@link #STOP_WAIT_MILLIS}),
 * so the events of the last second reach the file too. (Starting a recording to force a chunk rotation was
 * tried: during JVM shutdown it blocks in JFR's native code.)
 *
 * <p>Stop at JVM exit ({@link #stopAtExit}): JFR's own shutdown hook stops the recording and writes its final
 * chunk, concurrently with jetw's; no flush follows it, so waiting for flushes there could only time out
 * (docs/jvm-events.md, "Stop"). jetw waits instead for the stream to end by itself once it has read that final
 * chunk, at most {@link #EXIT_WAIT_MILLIS}, and says what it waited for ({@link #stopAtExit}'s report).
 */
public final class JfrEventSource implements RuntimeEventSource {

    static final long STOP_WAIT_MILLIS = 3_000;
    /**
     * At JVM exit: how long jetw waits for the stream to read JFR's final chunk. The stream polls the chunk file
     * about once a second and is woken every {@link #WAKE_MILLIS} (below), so it takes a few milliseconds once
     * JFR's hook has written the chunk; the bound is for a JFR that never does.
     */
    static final long EXIT_WAIT_MILLIS = 1_000;
    /** At JVM exit: how often the stream is woken from its poll of the chunk file (see {@link #stopAtExit}). */
    static final long WAKE_MILLIS = 10;
    static final long START_WAIT_MILLIS = 10_000;

    private final RuntimeEventWriter writer;
    private final long thresholdNanos;
    private final Object flushes = new Object();
    private long flushCount;
    private volatile boolean closed;
    private RecordingStream stream;
    private volatile Thread consumer;

    public JfrEventSource(RuntimeEventWriter writer, long thresholdNanos) {
        this.writer = writer;
        this.thresholdNanos = thresholdNanos;
    }

    @Override
    public void start() {
        RecordingStream rs = new RecordingStream();
        try {
            JfrEventMapper mapper = new JfrEventMapper(writer, thresholdNanos);
            Duration threshold = Duration.ofNanos(thresholdNanos);
            Set<String> f = writer.families();
            if (f.contains("gc")) {
                enable(rs, "jdk.GarbageCollection", null, false);
                enable(rs, "jdk.GCHeapSummary", null, false);
                enable(rs, "jdk.GCPhasePause", null, false);
            }
            if (f.contains("safepoint")) {
                // All of them: the threshold applies to the whole safepoint, known only at its end (the mapper).
                enable(rs, "jdk.SafepointBegin", null, false);
                enable(rs, "jdk.ExecuteVMOperation", null, false);
                enable(rs, "jdk.SafepointEnd", null, false);
            }
            if (f.contains("contention")) {
                enable(rs, "jdk.JavaMonitorEnter", threshold, false);
                enable(rs, "jdk.JavaMonitorWait", threshold, false);
            }
            if (f.contains("park")) {
                enable(rs, "jdk.ThreadPark", threshold, false);
            }
            if (f.contains("jit")) {
                enable(rs, "jdk.Compilation", threshold, false);
                enable(rs, "jdk.Deoptimization", null, false);
            }
            if (f.contains("classload")) {
                enable(rs, "jdk.ClassLoad", Duration.ZERO, false);
                enable(rs, "jdk.ClassUnload", null, false);
            }
            if (f.contains("exception")) {
                // JDK 25 throttles exception events (default.jfc: 100/s); an unknown setting is ignored on 17.
                enable(rs, "jdk.JavaExceptionThrow", null, true).with("throttle", "off");
                // JDK 25's ThrowableTracer stamps exception events with ErrorThrownEvent.timestamp(), a body
                // JFR generates only once jdk.JavaErrorThrow is enabled; before that it returns 0 and the
                // stream drops every event as older than its start (docs/jvm-events.md). The mapper ignores
                // the error events themselves (each Error also gives a jdk.JavaExceptionThrow).
                enable(rs, "jdk.JavaErrorThrow", null, false);
            }
            if (f.contains("thread")) {
                enable(rs, "jdk.ThreadStart", null, false);
                enable(rs, "jdk.ThreadEnd", null, false);
                if (Runtime.version().feature() >= 21) {
                    enable(rs, "jdk.VirtualThreadStart", null, false);
                    enable(rs, "jdk.VirtualThreadEnd", null, false);
                }
            }
            if (f.contains("io")) {
                enable(rs, "jdk.FileRead", threshold, false);
                enable(rs, "jdk.FileWrite", threshold, false);
                enable(rs, "jdk.SocketRead", threshold, false);
                enable(rs, "jdk.SocketWrite", threshold, false);
            }
            rs.setReuse(true);   // the mapper keeps no RecordedEvent: one object serves every event
            rs.setOrdered(true); // by end time, so a safepoint's begin, operation and end arrive in that order
            rs.onEvent(mapper::accept);
            rs.onFlush(() -> {
                mapper.onFlush();
                synchronized (flushes) {
                    flushCount++;
                    flushes.notifyAll();
                }
            });
            rs.onClose(() -> {
                closed = true;
                synchronized (flushes) {
                    flushes.notifyAll();
                }
            });
            awaitRunning(rs);
        } catch (RuntimeException | Error e) {
            rs.close();
            throw e;
        }
        stream = rs;
    }

    /**
     * Starts the stream on its daemon thread and returns once its recording runs (or the stream
     * failed, or {@link #START_WAIT_MILLIS} passed), so that the caller knows from when on events are
     * recorded. The caller is the core's starter thread {@code jetw-jfr-start}, never the application's
     * (issue 31: JFR's start takes a few hundred milliseconds, which premain no longer waits for).
     */
    private void awaitRunning(RecordingStream rs) {
        CountDownLatch running = new CountDownLatch(1);
        FlightRecorderListener listener = new FlightRecorderListener() {
            @Override
            public void recordingStateChanged(Recording r) {
                if (r.getState() == RecordingState.RUNNING) {
                    running.countDown(); // the stream's own recording has no public handle: any start is close enough
                }
            }
        };
        FlightRecorder.addListener(listener);
        try {
            startAsDaemon(rs, running);
            running.await(START_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            FlightRecorder.removeListener(listener);
        }
    }

    /**
     * JFR's own stream thread (startAsync) is not a daemon: it would keep the JVM from ever exiting.
     * So the stream runs in {@code start()} on a daemon thread of ours; a failure there is the one
     * line, and method tracing goes on.
     */
    private void startAsDaemon(RecordingStream rs, CountDownLatch running) {
        Thread consumer = dev.jetw.etw.JetwThreads.register(new Thread(() -> {
            dev.jetw.etw.JetwThreads.registerCurrentOsThread(); // it reads JFR's repository files: jetw's file I/O
            try {
                rs.start();
            } catch (RuntimeException | Error e) {
                System.err.println("jetw: jvm events: the JFR stream stopped (" + e + "); method tracing goes on");
            } finally {
                dev.jetw.etw.JetwThreads.unregisterCurrentOsThread(); // the kernel may give its id to an application thread
                running.countDown();
            }
        }, "jetw-jfr-consumer"));
        consumer.setDaemon(true);
        this.consumer = consumer;
        consumer.start();
    }

    private static jdk.jfr.EventSettings enable(RecordingStream rs, String event, Duration threshold, boolean stackTrace) {
        var settings = rs.enable(event);
        if (threshold != null) {
            settings.withThreshold(threshold);
        }
        if (stackTrace) {
            settings.withStackTrace();
        } else {
            settings.withoutStackTrace();
        }
        return settings;
    }

    /** What the consumer thread allocated (HotSpot's per-thread counter), -1 where the JVM does not count. */
    @Override
    public long allocatedBytes() {
        Thread t = consumer;
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        if (t == null || !(mx instanceof com.sun.management.ThreadMXBean)) {
            return -1;
        }
        return ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(t.getId());
    }

    @Override
    public String families() {
        return String.join(",", new LinkedHashSet<>(writer.families()));
    }

    @Override
    public void stop() {
        RecordingStream rs = stream;
        stream = null;
        if (rs == null) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS);
        try {
            boolean drained = stopAndDrain(rs);
            if (!drained) {
                awaitFlushes(deadline);
            }
            if (drained || closed) {
                awaitConsumer(deadline);
            }
        } catch (RuntimeException | Error e) {
            writer.failed(e); // JFR's own shutdown hook may have ended the recording already
        } finally {
            rs.close();
        }
    }

    /**
     * At JVM exit. JFR's shutdown hook, which runs at the same time as jetw's, stops the recording and finishes
     * its chunk; the stream then reads that final chunk and ends by itself ("recording stopped externally").
     * Calling {@code RecordingStream.stop()} here would race with that hook, and when it loses (the recording
     * is already stopped) it throws after marking the stream's stop barrier as used, after which the stream
     * never ends by itself (measured on 25: jetw then waited for flushes that cannot come, 3 s).
     *
     * <p>The stream looks at the chunk file about once a second (JFR wakes it only at its periodic flush,
     * which has ended): it is woken by an interrupt every {@link #WAKE_MILLIS}, which JFR's waits there
     * take as an early wake-up (its file reads are not interruptible, and jetw's write path on that thread
     * has no interruptible call). Returns what it waited for and how long, one line.
     */
    @Override
    public ExitStopReport stopAtExit() {
        RecordingStream rs = stream;
        stream = null;
        if (rs == null) {
            return null;
        }
        long start = System.nanoTime();
        Thread t = consumer;
        boolean ended;
        try {
            ended = awaitStreamEnd(t, start + TimeUnit.MILLISECONDS.toNanos(EXIT_WAIT_MILLIS));
        } finally {
            try {
                rs.close();
            } catch (RuntimeException | Error e) {
                writer.failed(e); // JFR's hook may be closing it too
            }
        }
        long waited = (System.nanoTime() - start) / 1_000_000;
        return ended
                ? new ExitStopReport("the stream delivered JFR's final chunk and ended " + waited + " ms after the stop began", true)
                : new ExitStopReport("JFR's stream had not ended " + waited + " ms after the stop began: the JVM events"
                        + " JFR recorded after its last delivered flush (up to about a second) are not in the trace", false);
    }

    /** Wakes the stream's thread until it ends or the deadline passes; true when it ended. */
    private static boolean awaitStreamEnd(Thread t, long deadline) {
        if (t == null || t == Thread.currentThread()) {
            return true;
        }
        boolean interrupted = false;
        try {
            while (t.isAlive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                t.interrupt();
                try {
                    t.join(Math.max(1, Math.min(WAKE_MILLIS, TimeUnit.NANOSECONDS.toMillis(left))));
                } catch (InterruptedException e) {
                    interrupted = true; // the exit goes on; the flag is given back below
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** JDK 20+: RecordingStream.stop() consumes every recorded event before it returns; false when there is no such method. */
    private static boolean stopAndDrain(RecordingStream rs) {
        Method stop;
        try {
            stop = RecordingStream.class.getMethod("stop");
        } catch (NoSuchMethodException e) {
            return false;
        }
        try {
            stop.invoke(rs);
        } catch (ReflectiveOperationException e) {
            return false; // already stopped or closed (JVM shutting down): what was consumed is in
        }
        return true;
    }

    /**
     * The stream has ended (drained by our stop, or closed by JFR's own shutdown hook, which runs at
     * the same time as jetw's): its close is signalled before its thread has dispatched the last
     * events it read, and at JVM exit nothing waits for a daemon thread. So wait for the thread.
     */
    private void awaitConsumer(long deadline) {
        Thread t = consumer;
        long left = deadline - System.nanoTime();
        if (t == null || t == Thread.currentThread() || left <= 0) {
            return;
        }
        try {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** JDK 17-19, or the recording stopped already: wait for two flushes of the stream (or its close). */
    private void awaitFlushes(long deadline) {
        long target;
        synchronized (flushes) {
            target = flushCount + 2;
        }
        synchronized (flushes) {
            while (flushCount < target && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    flushes.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
