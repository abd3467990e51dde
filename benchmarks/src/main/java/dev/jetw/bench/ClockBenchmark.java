package dev.jetw.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The clock floor of a timestamped event on this machine: the portable session stamps every event
 * with {@code System.nanoTime()}; JFR stamps its events with its own tick counter,
 * {@code jdk.jfr.internal.JVM.counterTime()} (an intrinsic that uses the TSC where the JVM trusts
 * it, else the OS clock). The fork exports that internal package to read the same counter here.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = "--add-exports=jdk.jfr/jdk.jfr.internal=ALL-UNNAMED")
@State(Scope.Benchmark)
public class ClockBenchmark {

    private static final MethodHandle JFR_COUNTER_TIME = lookUpJfrCounterTime();

    private static MethodHandle lookUpJfrCounterTime() {
        try {
            return MethodHandles.lookup().findStatic(Class.forName("jdk.jfr.internal.JVM"), "counterTime",
                    MethodType.methodType(long.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // no jdk.jfr module, or not exported: the benchmark then fails with this message
        }
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
    public long jfrCounterTime() throws Throwable {
        if (JFR_COUNTER_TIME == null) {
            throw new IllegalStateException("jdk.jfr.internal.JVM.counterTime() is not accessible in this JVM");
        }
        return (long) JFR_COUNTER_TIME.invokeExact();
    }
}
