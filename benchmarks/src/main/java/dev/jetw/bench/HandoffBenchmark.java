package dev.jetw.bench;

import dev.jetw.bench.work.HandoffWork;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Cost per submitted task of cross-thread links (docs/cross-thread.md): submit + run of an empty task
 * through a single-thread ThreadPoolExecutor, in batches of {@link #BATCH} (the worker drains the queue
 * without parking between tasks; the submitter waits for the last). {@code tracedSubmitter} submits
 * from a traced call (HandoffWork.submitBatch, one START/END per batch), {@code untracedSubmitter}
 * from the benchmark method (not traced: the tasks are not linked). The states (no agent, propagate=false,
 * propagate=true) are the forks' -javaagent, given by benchmarks/handoff-cost.sh.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class HandoffBenchmark {

    static final int BATCH = 100;

    private ExecutorService pool;

    @Setup
    public void start() {
        pool = Executors.newSingleThreadExecutor();
    }

    @TearDown
    public void stop() {
        pool.shutdownNow();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void tracedSubmitter() throws Exception {
        HandoffWork.submitBatch(pool, BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void untracedSubmitter() throws Exception {
        java.util.concurrent.Future<?> last = null;
        for (int i = 0; i < BATCH; i++) {
            last = pool.submit(EMPTY);
        }
        last.get();
    }

    private static final Runnable EMPTY = () -> { };
}
