package dev.jetw.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import dev.jetw.etl.EtlReader;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * One command for the instrumented-call figure: runs {@link InstrumentedCallBenchmark#call()} in
 * four states (no agent; agent attached but filtered by level; agent writing START+END through the
 * portable backend to a sequential file; the same into the in-memory buffering ring, where no event
 * is dropped and no disk competes) and {@link JfrEventBenchmark#aroundCompute} next to them, all
 * with the GC profiler, then prints one table with ns/call, ratio to no agent, ratio to JFR and
 * B/op, and what the file state's last fork recorded and lost (a writer faster than the disk drops
 * events, and a dropped event costs less than a written one).
 *
 * <p>The agent is given per state as {@code -javaagent:} in the forks' JVM arguments, because JMH
 * annotations cannot name an absolute path. Usage (from the repository root):
 * {@code java -cp benchmarks/target/benchmarks.jar dev.jetw.bench.RunAll [agentJar]}; system
 * properties {@code forks}, {@code warmups}, {@code iterations}, {@code seconds} override 2/2/3/1.
 */
public final class RunAll {

    private static final String TARGET = "dev.jetw.bench.work.**";

    private RunAll() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        Path agent = Paths.get(args.length > 0 ? args[0] : "agent/dist/target/jetw-agent.jar").toAbsolutePath();
        if (!Files.isRegularFile(agent)) {
            System.err.println("RunAll: agent jar " + agent + " does not exist; build it (mvn install) or pass its path");
            System.exit(2);
        }
        Path dir = Files.createTempDirectory("jetw-bench");
        Path filteredFile = dir.resolve("filtered.etl");
        Path writingFile = dir.resolve("writing.etl");
        Path memoryFile = dir.resolve("memory.etl");
        // adaptive=false: the benchmark measures a call that is recorded; adaptive exclusion (on by default)
        // would stop emitting for this very frequent, very short method after its first windows.
        // overwrite=true: every fork of a state writes the same file; without it the second fork's agent
        // refuses the existing file and does not attach, and that fork measures no agent at all.
        String filtered = "-javaagent:" + agent + "=include=" + TARGET + "@verbose,enableLevel=error,adaptive=false,overwrite=true,"
                + "backend=portable,file=" + filteredFile;
        String writing = "-javaagent:" + agent + "=include=" + TARGET + ",adaptive=false,overwrite=true,backend=portable,file=" + writingFile;
        // Buffering: the ring is written to the file once, at stop; MaximumBuffers does not apply.
        String inMemory = "-javaagent:" + agent + "=include=" + TARGET + ",adaptive=false,overwrite=true,backend=portable,mode=buffering,file="
                + memoryFile;

        List<Row> rows = new ArrayList<>();
        rows.addAll(run("no agent", null, InstrumentedCallBenchmark.class.getName() + ".call$",
                JfrEventBenchmark.class.getName() + ".aroundCompute$"));
        rows.addAll(run("agent, filtered", filtered, InstrumentedCallBenchmark.class.getName() + ".call$"));
        rows.addAll(run("agent, writing", writing, InstrumentedCallBenchmark.class.getName() + ".call$"));
        String fileFigures = fileFigures(writingFile);
        rows.addAll(run("agent, in memory", inMemory, InstrumentedCallBenchmark.class.getName() + ".call$"));
        String memoryFigures = fileFigures(memoryFile);
        Files.deleteIfExists(filteredFile);
        Files.deleteIfExists(writingFile);
        Files.deleteIfExists(memoryFile);
        Files.deleteIfExists(dir);

        Row none = find(rows, "no agent", "call");
        Row jfr = find(rows, "no agent", "aroundCompute");
        System.out.println();
        System.out.println("state              benchmark       ns/call        error(99.9%)  x no-agent  x JFR   B/op");
        for (Row r : rows) {
            System.out.println(String.format(Locale.ROOT, "%-18s %-15s %10.3f  ± %10.3f  %9.2f  %6.2f  %6.1f",
                    r.state, r.benchmark, r.score, r.error, r.score / none.score, r.score / jfr.score, r.allocNorm));
        }
        System.out.println(String.format(Locale.ROOT,
                "over no agent: filtered %+.3f ns, writing %+.3f ns, in memory %+.3f ns; JFR %+.3f ns",
                find(rows, "agent, filtered", "call").score - none.score,
                find(rows, "agent, writing", "call").score - none.score,
                find(rows, "agent, in memory", "call").score - none.score, jfr.score - none.score));
        System.out.println("writing state, last fork's file: " + fileFigures);
        System.out.println("in-memory state, last fork's ring at stop: " + memoryFigures);
    }

    /** Events in the file, the header's EventsLost and the file size; the file's own words if it cannot be read. */
    private static String fileFigures(Path file) {
        if (!Files.exists(file)) {
            return "no file";
        }
        try (EtlReader r = EtlReader.open(file)) {
            long events = 0;
            while (r.next() != null) {
                events++;
            }
            long lost = r.header().eventsLost() & 0xFFFFFFFFL;
            return String.format(Locale.ROOT, "%d events recorded, %d lost (%.1f %% of calls' events dropped), %d bytes",
                    events, lost, 100.0 * lost / Math.max(1, events + lost), r.fileSize());
        } catch (IOException | RuntimeException e) {
            return "unreadable: " + e;
        }
    }

    private static List<Row> run(String state, String jvmArg, String... includes) throws RunnerException {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .forks(Integer.getInteger("forks", 2))
                .warmupIterations(Integer.getInteger("warmups", 2))
                .measurementIterations(Integer.getInteger("iterations", 3))
                .warmupTime(TimeValue.seconds(Integer.getInteger("seconds", 1)))
                .measurementTime(TimeValue.seconds(Integer.getInteger("seconds", 1)))
                .timeUnit(TimeUnit.NANOSECONDS)
                .addProfiler(GCProfiler.class);
        for (String include : includes) {
            b.include(include);
        }
        if (jvmArg != null) {
            b.jvmArgsAppend(jvmArg);
        }
        Collection<RunResult> results = new Runner(b.build()).run();
        List<Row> rows = new ArrayList<>();
        for (RunResult rr : results) {
            Result<?> p = rr.getPrimaryResult();
            Result<?> alloc = rr.getSecondaryResults().get("gc.alloc.rate.norm");
            String label = rr.getParams().getBenchmark();
            rows.add(new Row(state, label.substring(label.lastIndexOf('.') + 1), p.getScore(), p.getScoreError(),
                    alloc == null ? Double.NaN : alloc.getScore()));
        }
        return rows;
    }

    private static Row find(List<Row> rows, String state, String benchmark) {
        for (Row r : rows) {
            if (r.state.equals(state) && r.benchmark.equals(benchmark)) {
                return r;
            }
        }
        throw new IllegalStateException("no result for " + state + " / " + benchmark);
    }

    /** One benchmark's figure in one state. */
    private static final class Row {
        final String state;
        final String benchmark;
        final double score;
        final double error;
        final double allocNorm;

        Row(String state, String benchmark, double score, double error, double allocNorm) {
            this.state = state;
            this.benchmark = benchmark;
            this.score = score;
            this.error = error;
            this.allocNorm = allocNorm;
        }
    }
}
