package dev.jetw.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
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
 * The clock floor of a timestamped event on this machine: the portable session stamps every event
 * with {@code System.nanoTime()}; is any cheaper monotonic source open to a Java agent (issue 17.3)?
 * Candidates ({@link ClockSources}): the wall-clock reads (currentTimeMillis, Clock, Instant; not
 * monotonic), a ticker thread's volatile field, and on Java 22+ clock_gettime called through FFM
 * (CLOCK_MONOTONIC and CLOCK_MONOTONIC_COARSE, normal and critical downcalls). JFR stamps its
 * events with its own tick counter, {@code jdk.jfr.internal.JVM.counterTime()} (an intrinsic that
 * uses the TSC where the JVM trusts it); the fork exports that internal package to read it here.
 * The precision of each source: {@link ClockResolution}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--add-exports=jdk.jfr/jdk.jfr.internal=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class ClockBenchmark {

    private static final MethodHandle JFR_COUNTER_TIME = lookUpJfrCounterTime();

    private ClockSources.Ticker ticker;

    private static MethodHandle lookUpJfrCounterTime() {
        try {
            return MethodHandles.lookup().findStatic(Class.forName("jdk.jfr.internal.JVM"), "counterTime",
                    MethodType.methodType(long.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // no jdk.jfr module, or not exported: the benchmark then fails with this message
        }
    }

    /** 1 ms: a period an agent could afford (the thread wakes 1,000 times a second). */
    @Setup(Level.Trial)
    public void startTicker() {
        ticker = new ClockSources.Ticker(1_000_000L);
    }

    @TearDown(Level.Trial)
    public void stopTicker() throws InterruptedException {
        ticker.close();
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    @Benchmark
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Benchmark
    public long clockMillis() {
        return ClockSources.clockMillisAsNanos();
    }

    @Benchmark
    public long instantNow() {
        return ClockSources.instantNanos();
    }

    @Benchmark
    public long tickerVolatile() {
        return ticker.now();
    }

    @Benchmark
    public long ffmMonotonic() throws Throwable {
        return ClockSources.clockGettime(ClockSources.CLOCK_MONOTONIC, false);
    }

    @Benchmark
    public long ffmMonotonicCoarse() throws Throwable {
        return ClockSources.clockGettime(ClockSources.CLOCK_MONOTONIC_COARSE, false);
    }

    @Benchmark
    public long ffmCriticalMonotonic() throws Throwable {
        return ClockSources.clockGettime(ClockSources.CLOCK_MONOTONIC, true);
    }

    @Benchmark
    public long ffmCriticalMonotonicCoarse() throws Throwable {
        return ClockSources.clockGettime(ClockSources.CLOCK_MONOTONIC_COARSE, true);
    }

    @Benchmark
    public long jfrCounterTime() throws Throwable {
        if (JFR_COUNTER_TIME == null) {
            throw new IllegalStateException("jdk.jfr.internal.JVM.counterTime() is not accessible in this JVM");
        }
        return (long) JFR_COUNTER_TIME.invokeExact();
    }
}
