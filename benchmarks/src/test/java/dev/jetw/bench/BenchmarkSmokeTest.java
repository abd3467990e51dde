package dev.jetw.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * One benchmark method runs once through the JMH Runner API (in-process,
 * one single-shot measurement) and yields a result. The benchmarks themselves run on demand
 * (BENCHMARKS.md), never here.
 */
class BenchmarkSmokeTest {

    @Test
    void writerBenchmarkRunsOnceAndReportsAResult() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(TraceWriterBenchmark.class.getName() + ".startEnd$")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .mode(Mode.SingleShotTime)
                .shouldFailOnError(true)
                .build()).run();

        assertEquals(1, results.size(), "one benchmark selected");
        RunResult result = results.iterator().next();
        assertEquals(1, result.getPrimaryResult().getSampleCount(), "one measured invocation");
        double score = result.getPrimaryResult().getScore();
        assertTrue(score > 0 && !Double.isNaN(score), "a positive single-shot time, got " + score);
    }
}
