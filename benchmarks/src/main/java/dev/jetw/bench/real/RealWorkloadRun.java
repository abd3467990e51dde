package dev.jetw.bench.real;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real-workload figures of BENCHMARKS.md: {@link ShopApp} (H2 + Jackson) with no agent and
 * under the agent with the whole H2 library included, paired (each agent run next to a no-agent
 * run, so they share the machine's drift). Usage, from the repository root after
 * {@code mvn -o -q package -pl benchmarks,agent/dist -am -DskipTests}:
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.jetw.bench.real.RealWorkloadRun agent/dist/target/jetw-agent.jar [startup] [attach] [compare]</pre>
 *
 * <ul>
 * <li>{@code startup}: one child JVM per run, {@code -javaagent} from the start, {@code rounds} rounds;</li>
 * <li>{@code attach}: per pair a child JVM warmed by {@code warm} rounds, then {@code measure} rounds
 *     without agent, attach, {@code measure} rounds attached, detach (a fresh JVM per pair: after a
 *     detach the application does not return to its earlier speed within the run, issue 11 item 6);</li>
 * <li>{@code compare}: the calls of at least {@code threshold} in a run with that threshold, against
 *     the calls of at least that long in a run recording every call (adaptive=false) into a big file.</li>
 * </ul>
 * System properties: pairs (3), rounds (60), skip (0: start-up rounds reported apart as the one-off part, the rest as
 * the steady state), warm (100), measure (40), settle (0: rounds after the attach reported apart as its transient), threshold (1ms), compareRounds (2), configs
 * (a '|'-separated list of extra option sets to measure next to the defaults). Every run prints the
 * agent's stop line and checks it against the file: events written = events in the file, so loss is
 * never silent; the checksum must be the same in every run.
 */
public final class RealWorkloadRun {

    private static final Pattern RESULT = Pattern.compile("rounds (\\d+) ms (\\d+) cpu (\\d+) checksum ([0-9a-f]+)");
    private static final Pattern LEAD = Pattern.compile("lead rounds (\\d+) ms (\\d+) cpu (\\d+) checksum ([0-9a-f]+)");
    private static final Pattern PROCESS_CPU = Pattern.compile("process cpu (\\d+)");
    private static final Pattern STOP = Pattern.compile("(\\d+) events written, (\\d+) dropped, (\\S+) lost");
    /** The stop line's kernel part (kernel=, portable backend on Linux): "; kernel events: N written, M lost (COLLECTOR)". */
    private static final Pattern KERNEL = Pattern.compile("; kernel events: \\d+ written, \\d+ lost \\((?:[^()]|\\([^()]*\\))*\\)");

    private final Path agent;
    private final Path classpath;
    private final Path dir;
    private final int pairs = Integer.getInteger("pairs", 3);
    private String checksum;

    private RealWorkloadRun(Path agent) throws IOException {
        this.agent = agent.toAbsolutePath();
        this.classpath = Paths.get(RealWorkloadRun.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        this.dir = Files.createTempDirectory("jetw-real");
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: RealWorkloadRun AGENT_JAR [startup] [attach] [compare]");
            System.exit(2);
        }
        RealWorkloadRun run = new RealWorkloadRun(Paths.get(args[0]));
        List<String> what = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            what.add(args[i]);
        }
        if (what.isEmpty()) {
            what.add("startup");
            what.add("attach");
        }
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put("include=org.h2.** (defaults)", "include=org.h2.**");
        String extra = System.getProperty("configs", "");
        for (String c : extra.split("\\|")) {
            if (!c.isEmpty()) {
                configs.put(c, c);
            }
        }
        System.out.println("java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
        if (what.contains("startup")) {
            run.startup(configs);
        }
        if (what.contains("attach")) {
            run.attach(configs);
        }
        if (what.contains("compare")) {
            run.compare(System.getProperty("threshold", "1ms"));
        }
    }

    /** What one measured run gave. */
    private static final class Run {
        long millis;
        /** CPU time of the whole child process over the rounds. */
        long cpuMillis;
        String stopLine;
        long written = -1;
        long dropped;
        String lost = "-";
        long inFile = -1;
        /** Start-up with skip: the leading rounds (wall and process CPU ms), before the measured ones. */
        long leadMillis;
        long leadCpuMillis;
        /** Start-up: the child process's life (wall, seen by the launcher) and its CPU since the JVM started. */
        long processMillis;
        long processCpuMillis;

        /** A run whose rounds are this run's leading and measured rounds together. */
        Run whole() {
            Run w = new Run();
            w.millis = leadMillis + millis;
            w.cpuMillis = leadCpuMillis + cpuMillis;
            return w;
        }

        /** A run whose figures are the whole child process's. */
        Run process() {
            Run p = new Run();
            p.millis = processMillis;
            p.cpuMillis = processCpuMillis;
            return p;
        }
    }

    private void startup(Map<String, String> configs) throws Exception {
        int rounds = Integer.getInteger("rounds", 60);
        int skip = Integer.getInteger("skip", 0);
        System.out.println("== start-up: " + rounds + " rounds from JVM start, " + pairs + " pairs"
                + (skip > 0 ? ", the first " + skip + " rounds apart" : ""));
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        runs.put("no agent", new ArrayList<>());
        for (String name : configs.keySet()) {
            runs.put(name, new ArrayList<>());
        }
        for (int p = 0; p < pairs; p++) {
            runs.get("no agent").add(child(null, rounds, skip));
            int i = 0;
            for (Map.Entry<String, String> c : configs.entrySet()) {
                Path etl = dir.resolve("startup-" + p + "-" + i++ + ".etl");
                Run r = child(c.getValue() + ",backend=portable,file=" + etl, rounds, skip);
                count(r, etl);
                runs.get(c.getKey()).add(r);
                Files.deleteIfExists(etl);
            }
        }
        if (skip <= 0) {
            table(runs, "ms for " + rounds + " rounds");
            return;
        }
        System.out.println("-- steady state: the " + (rounds - skip) + " rounds after the first " + skip);
        table(runs, "ms for " + (rounds - skip) + " rounds");
        System.out.println("-- all " + rounds + " rounds");
        table(view(runs, Run::whole), "ms for " + rounds + " rounds");
        System.out.println("-- the whole child process (JVM start, premain, rounds, exit; wall seen by the launcher)");
        table(view(runs, Run::process), "ms per process");
        System.out.println("-- one-off cost: agent minus no agent, paired, mean [95 % CI]");
        List<Run> base = runs.get("no agent");
        for (Map.Entry<String, List<Run>> e : runs.entrySet()) {
            if (e.getValue() == base) {
                continue;
            }
            List<Run> rs = e.getValue();
            double[] leadWall = new double[rs.size()];
            double[] leadCpu = new double[rs.size()];
            double[] procWall = new double[rs.size()];
            double[] procCpu = new double[rs.size()];
            for (int i = 0; i < rs.size(); i++) {
                leadWall[i] = rs.get(i).leadMillis - base.get(i).leadMillis;
                leadCpu[i] = rs.get(i).leadCpuMillis - base.get(i).leadCpuMillis;
                procWall[i] = rs.get(i).processMillis - base.get(i).processMillis;
                procCpu[i] = rs.get(i).processCpuMillis - base.get(i).processCpuMillis;
            }
            System.out.printf(Locale.ROOT, "%-46s first %d rounds: +%s ms wall, +%s ms CPU; whole process: +%s ms wall, +%s ms CPU%n",
                    e.getKey(), skip, meanAndInterval(leadWall, "%.0f"), meanAndInterval(leadCpu, "%.0f"),
                    meanAndInterval(procWall, "%.0f"), meanAndInterval(procCpu, "%.0f"));
        }
    }

    /** The same runs seen through {@code f} (e.g. their whole process instead of their measured rounds). */
    private static Map<String, List<Run>> view(Map<String, List<Run>> runs, java.util.function.Function<Run, Run> f) {
        Map<String, List<Run>> v = new LinkedHashMap<>();
        for (Map.Entry<String, List<Run>> e : runs.entrySet()) {
            List<Run> l = new ArrayList<>();
            for (Run r : e.getValue()) {
                l.add(f.apply(r));
            }
            v.put(e.getKey(), l);
        }
        return v;
    }

    private Run child(String agentOptions, int rounds, int skip) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        if (agentOptions != null) {
            cmd.add("-javaagent:" + agent + "=" + agentOptions);
        }
        cmd.add("-cp");
        cmd.add(classpath.toString());
        cmd.add(ShopApp.class.getName());
        cmd.add(Integer.toString(rounds));
        cmd.add(Integer.toString(skip));
        long started = System.nanoTime();
        Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Run r = new Run();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                Matcher m = RESULT.matcher(line);
                Matcher lead = LEAD.matcher(line);
                Matcher cpu = PROCESS_CPU.matcher(line);
                if (m.matches()) {
                    r.millis = Long.parseLong(m.group(2));
                    r.cpuMillis = Long.parseLong(m.group(3));
                    checksum(m.group(4));
                } else if (lead.matches()) {
                    r.leadMillis = Long.parseLong(lead.group(2));
                    r.leadCpuMillis = Long.parseLong(lead.group(3));
                    checksum(lead.group(4));
                } else if (cpu.matches()) {
                    r.processCpuMillis = Long.parseLong(cpu.group(1));
                } else if (line.startsWith("jetw: ") && STOP.matcher(line).find()) {
                    stopLine(r, line);
                } else if (!line.startsWith("jetw agent attached")) {
                    System.out.println("  child: " + line);
                }
            }
        }
        int exit = proc.waitFor();
        r.processMillis = (System.nanoTime() - started) / 1_000_000;
        if (exit != 0 || r.millis == 0) {
            throw new IllegalStateException("child failed: " + cmd);
        }
        return r;
    }

    private void attach(Map<String, String> configs) throws Exception {
        int warm = Integer.getInteger("warm", 100);
        int measure = Integer.getInteger("measure", 40);
        int settle = Integer.getInteger("settle", 0);
        System.out.println("== attached to the warm application: per pair a fresh JVM, " + warm + " warm-up rounds, " + measure
                + " rounds without agent, attach, " + measure + " rounds attached, detach; " + pairs + " pairs per option set");
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        for (Map.Entry<String, String> c : configs.entrySet()) {
            List<Run> none = runs.computeIfAbsent("no agent (" + c.getKey() + " JVMs)", k -> new ArrayList<>());
            List<Run> with = runs.computeIfAbsent(c.getKey() + " attached", k -> new ArrayList<>());
            List<double[]> oneOff = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
                cmd.add("-cp");
                cmd.add(classpath.toString());
                cmd.add(ShopApp.class.getName());
                cmd.add("serve");
                Process app = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
                PrintWriter in = new PrintWriter(app.getOutputStream(), true, StandardCharsets.UTF_8);
                BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
                in.println("pid");
                String pid = out.readLine().substring(4);
                command(in, out, "run " + warm);
                Run before = command(in, out, "run " + measure);
                none.add(before);
                Path etl = dir.resolve("attach-" + p + ".etl");
                long cpu0 = processCpu(in, out);
                long t0 = System.nanoTime();
                String reply = jetw("attach", pid, c.getValue() + ",backend=portable,file=" + etl);
                if (!reply.startsWith("jetw agent attached")) {
                    throw new IllegalStateException("attach failed: " + reply);
                }
                long attachMillis = (System.nanoTime() - t0) / 1_000_000;
                if (settle > 0) {
                    // The attach transient: retransformation, JIT, adaptive exclusion and the remover settling.
                    Run transientRounds = command(in, out, "run " + settle);
                    long wall = (System.nanoTime() - t0) / 1_000_000;
                    long cpu = processCpu(in, out) - cpu0;
                    double perRound = (double) before.millis / measure;
                    double cpuPerRound = (double) before.cpuMillis / measure;
                    oneOff.add(new double[] {attachMillis, transientRounds.millis, wall - settle * perRound, cpu - settle * cpuPerRound});
                }
                Run r = command(in, out, "run " + measure);
                stopLine(r, jetw("detach", pid));
                count(r, etl);
                with.add(r);
                Files.deleteIfExists(etl);
                in.println("quit");
                app.waitFor();
            }
            if (!oneOff.isEmpty()) {
                double[][] cols = new double[4][oneOff.size()];
                for (int i = 0; i < oneOff.size(); i++) {
                    for (int k = 0; k < 4; k++) {
                        cols[k][i] = oneOff.get(i)[k];
                    }
                }
                System.out.printf(Locale.ROOT, "%-46s attach command %s ms; %d transient rounds %s ms; one-off cost over the attach and "
                        + "the transient (minus the same rounds at the no-agent pace): +%s ms wall, +%s ms process CPU%n",
                        c.getKey(), meanAndInterval(cols[0], "%.0f"), settle, meanAndInterval(cols[1], "%.0f"),
                        meanAndInterval(cols[2], "%.0f"), meanAndInterval(cols[3], "%.0f"));
            }
        }
        if (settle > 0) {
            System.out.println("-- steady state: the " + measure + " rounds after the " + settle + " transient rounds, against the "
                    + measure + " rounds before the attach");
        }
        table(runs, "ms for " + measure + " rounds");
    }

    /** The application's process CPU ms since its start ({@code cpu} command). */
    private static long processCpu(PrintWriter in, BufferedReader out) throws IOException {
        in.println("cpu");
        String line = out.readLine();
        Matcher m = line == null ? null : PROCESS_CPU.matcher(line);
        if (m == null || !m.matches()) {
            throw new IllegalStateException("cpu: " + line);
        }
        return Long.parseLong(m.group(1));
    }

    private Run command(PrintWriter in, BufferedReader out, String command) throws IOException {
        in.println(command);
        String line = out.readLine();
        Matcher m = line == null ? null : RESULT.matcher(line);
        if (m == null || !m.matches()) {
            throw new IllegalStateException(command + ": " + line);
        }
        checksum(m.group(4));
        Run r = new Run();
        r.millis = Long.parseLong(m.group(2));
        r.cpuMillis = Long.parseLong(m.group(3));
        return r;
    }

    private String jetw(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-jar");
        cmd.add(agent.toString());
        for (String a : args) {
            cmd.add(a);
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String reply = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return reply;
    }

    /** Calls of at least the threshold: with threshold=T against a run that records every call. */
    private void compare(String threshold) throws Exception {
        int rounds = Integer.getInteger("compareRounds", 2);
        long nanos = parseNanos(threshold);
        System.out.println("== calls of at least " + threshold + " over " + rounds + " rounds from start-up");
        Path thresholded = dir.resolve("threshold.etl");
        Run t = child("include=org.h2.**,threshold=" + threshold + ",backend=portable,file=" + thresholded, rounds, 0);
        count(t, thresholded);
        Path all = dir.resolve("all.etl");
        // An in-memory ring of 1 GB, written at stop: nothing dropped for want of disk speed; "silent loss" below
        // (events written but not in the file) would show an overwritten ring.
        Run a = child("include=org.h2.**,adaptive=false,backend=portable,mode=buffering,bufferSize=1024,minBuffers=1024,maxBuffers=1024,file=" + all, rounds, 0);
        count(a, all);
        Map<String, Integer> inT = slowCalls(thresholded, nanos);
        Map<String, Integer> inAll = slowCalls(all, nanos);
        System.out.printf(Locale.ROOT, "threshold run: %d calls >= %s written (%s; events in file %d)%n", sum(inT), threshold,
                t.stopLine, t.inFile);
        System.out.printf(Locale.ROOT, "record-all run: %d calls >= %s among all calls (%s; events in file %d)%n", sum(inAll),
                threshold, a.stopLine, a.inFile);
        int methodsOnlyInAll = 0;
        for (String m : inAll.keySet()) {
            if (!inT.containsKey(m)) {
                methodsOnlyInAll++;
            }
        }
        System.out.printf(Locale.ROOT, "methods with a call >= %s: %d in the threshold run, %d in the record-all run, %d only in the latter%n",
                threshold, inT.size(), inAll.size(), methodsOnlyInAll);
        Files.deleteIfExists(thresholded);
        Files.deleteIfExists(all);
    }

    /** Per method id, the calls (START and END paired by thread and instance id) lasting at least {@code nanos}. */
    private static Map<String, Integer> slowCalls(Path etl, long nanos) throws IOException {
        Map<String, Long> starts = new HashMap<>();
        Map<String, Integer> out = new HashMap<>();
        try (EtlReader r = EtlReader.open(etl)) {
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                if (!JetwSchema.METHOD_CALL_CLASS.equals(e.guid())) {
                    continue;
                }
                String key = e.threadId() + "/" + e.instanceId();
                if (e.type() == EventType.START) {
                    starts.put(key, e.fileTime());
                } else if (e.type() == EventType.END) {
                    Long s = starts.remove(key);
                    if (s != null && (e.fileTime() - s) * 100 >= nanos) {
                        int methodId = java.nio.ByteBuffer.wrap(e.userData()).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(0);
                        out.merge(Integer.toString(methodId), 1, Integer::sum);
                    }
                }
            }
        }
        return out;
    }

    private static int sum(Map<String, Integer> m) {
        int s = 0;
        for (int v : m.values()) {
            s += v;
        }
        return s;
    }

    private static long parseNanos(String d) {
        String[] units = {"ns", "us", "ms", "s"};
        long[] factor = {1, 1_000, 1_000_000, 1_000_000_000};
        for (int i = 0; i < units.length; i++) {
            if (d.endsWith(units[i]) && (i != 3 || !d.endsWith("ms") && !d.endsWith("us") && !d.endsWith("ns"))) {
                return Long.parseLong(d.substring(0, d.length() - units[i].length())) * factor[i];
            }
        }
        throw new IllegalArgumentException("threshold " + d);
    }

    private void checksum(String c) {
        if (checksum == null) {
            checksum = c;
        } else if (!checksum.equals(c)) {
            throw new IllegalStateException("checksum " + c + " differs from " + checksum);
        }
    }

    private static void stopLine(Run r, String line) {
        Matcher m = STOP.matcher(line);
        if (m.find()) {
            Matcher k = KERNEL.matcher(line);
            r.stopLine = m.group() + (k.find() ? k.group() : "");
            r.written = Long.parseLong(m.group(1));
            r.dropped = Long.parseLong(m.group(2));
            r.lost = m.group(3);
        }
    }

    /**
     * jetw's events in the file: every classic record but the session's own notices (kernel records, with their
     * SYSTEM headers, are counted apart in the stop line; the logfile header is no event).
     */
    private static void count(Run r, Path etl) throws IOException {
        long n = 0;
        try (EtlReader reader = EtlReader.open(etl)) {
            for (EtlRecord e = reader.next(); e != null; e = reader.next()) {
                if (e.group() < 0 && !dev.jetw.etl.SessionNotice.CLASS.equals(e.guid())) {
                    n++;
                }
            }
        }
        r.inFile = n;
    }

    private void table(Map<String, List<Run>> runs, String unit) {
        List<Run> base = null;
        for (Map.Entry<String, List<Run>> e : runs.entrySet()) {
            List<Run> rs = e.getValue();
            if (e.getKey().startsWith("no agent")) {
                base = rs;
            }
            StringBuilder ms = new StringBuilder();
            StringBuilder cpu = new StringBuilder();
            double[] wallRatios = new double[rs.size()];
            double[] cpuRatios = new double[rs.size()];
            for (int i = 0; i < rs.size(); i++) {
                ms.append(i == 0 ? "" : " ").append(rs.get(i).millis);
                cpu.append(i == 0 ? "" : " ").append(rs.get(i).cpuMillis);
                wallRatios[i] = (double) base.get(i).millis / rs.get(i).millis;
                cpuRatios[i] = (double) base.get(i).cpuMillis / Math.max(1, rs.get(i).cpuMillis);
            }
            System.out.printf(Locale.ROOT, "%-46s %s: %s (process CPU ms: %s); throughput vs no agent, paired: wall %s, CPU %s%n",
                    e.getKey(), unit, ms, cpu, meanAndInterval(wallRatios), meanAndInterval(cpuRatios));
            List<Run> firstAgent = firstAgentRuns(runs);
            if (firstAgent != null && rs != firstAgent && rs != base) {
                for (int i = 0; i < rs.size(); i++) {
                    wallRatios[i] = (double) firstAgent.get(i).millis / rs.get(i).millis;
                    cpuRatios[i] = (double) firstAgent.get(i).cpuMillis / Math.max(1, rs.get(i).cpuMillis);
                }
                System.out.printf(Locale.ROOT, "%-46s throughput vs the first agent row, paired: wall %s, CPU %s%n", "",
                        meanAndInterval(wallRatios), meanAndInterval(cpuRatios));
            }
            for (Run r : rs) {
                if (r.written >= 0 || r.inFile >= 0) {
                    System.out.printf(Locale.ROOT, "    stop line: %s; events in file %d; silent loss %d%n", r.stopLine, r.inFile,
                            r.written - r.inFile);
                }
            }
        }
        System.out.println("checksum " + checksum + " in every run");
    }

    /** The runs of the first option set after "no agent": what an extra option (kernel=, ...) is compared with. */
    private static List<Run> firstAgentRuns(Map<String, List<Run>> runs) {
        for (Map.Entry<String, List<Run>> e : runs.entrySet()) {
            if (!e.getKey().startsWith("no agent")) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Mean of the paired ratios and its 95 % confidence interval (Student's t), "0.812 [0.790, 0.834]". */
    public static String meanAndInterval(double[] x) {
        return meanAndInterval(x, "%.3f");
    }

    /** {@link #meanAndInterval(double[])} with the numbers in {@code format}. */
    static String meanAndInterval(double[] x, String format) {
        int n = x.length;
        double mean = 0;
        for (double v : x) {
            mean += v / n;
        }
        if (n < 2) {
            return String.format(Locale.ROOT, format, mean);
        }
        double ss = 0;
        for (double v : x) {
            ss += (v - mean) * (v - mean);
        }
        double half = T95[Math.min(n - 1, T95.length) - 1] * Math.sqrt(ss / (n - 1) / n);
        return String.format(Locale.ROOT, format + " [" + format + ", " + format + "]", mean, mean - half, mean + half);
    }

    /** Two-sided 95 % quantiles of Student's t for 1 to 10 degrees of freedom (more: the value for 10, wider than needed). */
    private static final double[] T95 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
}
