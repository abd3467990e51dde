package dev.jetw.bench;

import dev.jetw.bench.work.Work;
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
 * One call of {@link Work#compute(int)}. The benchmark itself is the same in every state; what
 * differs is the fork's JVM arguments (no agent, agent filtered, agent writing), which
 * {@link RunAll} supplies per state.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(2)
@State(Scope.Thread)
public class InstrumentedCallBenchmark {

    /** Varies per call so the JIT cannot constant-fold compute(). */
    private int input;

    @Benchmark
    public int call() {
        return Work.compute(input++);
    }
}
